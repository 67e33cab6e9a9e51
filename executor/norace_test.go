//go:build !race

package executor_test

// raceEnabled says the race detector is on (race_test.go).
const raceEnabled = false
