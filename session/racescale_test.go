package session_test

// raceScale is a property test's count of random cases n, cut to a third
// (and at least least) under the race detector, which slows each case
// several times over: the race detector looks for data races, which the
// first cases already exercise, and the full count runs without it.
func raceScale(n, least int) int {
	if !raceEnabled {
		return n
	}
	return max(n/3, least)
}
