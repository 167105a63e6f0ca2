package rank

import "strings"

// excerptLines is the size of an excerpt.
const excerptLines = 4

// Excerpt picks the excerptLines lines of a chunk's text where the query
// terms are densest, without their line ends.
func Excerpt(text []byte, terms []string) []string {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	score := make([]int, len(lines))
	for i, l := range lines {
		low := strings.ToLower(l)
		for _, t := range terms {
			if strings.Contains(low, t) {
				score[i] += 1 + len(t)/4
			}
		}
	}
	best, bestAt := -1, 0
	for i := range lines {
		sum := 0
		for j := i; j < i+excerptLines && j < len(lines); j++ {
			sum += score[j]
		}
		if sum > best {
			best, bestAt = sum, i
		}
	}
	end := min(bestAt+excerptLines, len(lines))
	out := make([]string, 0, excerptLines)
	for _, l := range lines[bestAt:end] {
		out = append(out, strings.TrimRight(l, "\r"))
	}
	return out
}
