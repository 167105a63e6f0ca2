package rank

import "sort"

// sortStable sorts xs as sort.SliceStable(xs, less) would, where less
// compares the elements at two positions of the slice being sorted: it
// sorts the elements' positions with sort.SliceStable and the same
// comparisons, then moves each element once, along the cycles of the
// permutation. The order is the same (the algorithm's steps depend only
// on the answers of less, which are the same), and a Cand, some 200
// bytes, is not swapped a hundred times.
func sortStable[T any](xs []T, less func(x, y *T) bool) {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return less(&xs[order[a]], &xs[order[b]]) })
	// Position k takes the element at order[k]; a position done is
	// marked -1.
	for start := range order {
		if order[start] < 0 {
			continue
		}
		tmp := xs[start]
		k := start
		for order[k] != start {
			next := order[k]
			xs[k] = xs[next]
			order[k] = -1
			k = next
		}
		xs[k] = tmp
		order[k] = -1
	}
}
