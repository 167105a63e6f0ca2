//go:build !linux

package main

// Memory figures come from /proc on Linux; elsewhere they are not
// measured, and the tables show "-".

func resetPeakRSS()      {}
func peakRSSMB() float64 { return 0 }
func rssMB() float64     { return 0 }
