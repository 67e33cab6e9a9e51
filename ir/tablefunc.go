package ir

// ScalarTableFunc is the TableFunc name of a scalar function called in
// FROM: its one argument is the call, its one row the value.
const ScalarTableFunc = "scalar"
