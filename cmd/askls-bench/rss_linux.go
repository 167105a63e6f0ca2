package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// resetPeakRSS resets the kernel's peak-RSS mark for this process.
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSMB is the peak resident set since the last reset, in MB.
func peakRSSMB() float64 { return procStatusMB("VmHWM:") }

// rssMB is the resident set now, in MB.
func rssMB() float64 { return procStatusMB("VmRSS:") }

// pidRSSMB is the resident set of process pid now, in MB.
func pidRSSMB(pid int) float64 { return pidStatusMB(pid, "VmRSS:") }

func procStatusMB(key string) float64 { return statusMB("/proc/self/status", key) }

// pidStatusMB reads a memory figure (VmRSS:, VmHWM:) of process pid.
func pidStatusMB(pid int, key string) float64 {
	return statusMB("/proc/"+strconv.Itoa(pid)+"/status", key)
}

func statusMB(path, key string) float64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
