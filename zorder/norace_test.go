//go:build !race

package zorder

// raceEnabled says the race detector is on (race_test.go).
const raceEnabled = false
