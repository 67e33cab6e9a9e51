package zorder

// raceScale is a property test's count of random cases n, cut to a third
// (and at least least) under the race detector, which slows this
// package's pure computation several times over and finds no data race in
// it that the first cases do not show; the full count runs without it.
func raceScale(n, least int) int {
	if !raceEnabled {
		return n
	}
	return max(n/3, least)
}
