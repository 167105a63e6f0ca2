//go:build !linux

package main

// Memory figures come from /proc on Linux; elsewhere they are not
// measured, and the tables show "-".

func resetPeakRSS()        {}
func peakRSSMB() float64   { return 0 }
func rssMB() float64       { return 0 }
func pidRSSMB(int) float64 { return 0 }

func pidStatusMB(int, string) float64 { return 0 }
