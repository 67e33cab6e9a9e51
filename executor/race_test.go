//go:build race

package executor_test

// raceEnabled says the race detector is on: allocation figures, which it
// changes, are not checked then.
const raceEnabled = true
