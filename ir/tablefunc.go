package ir

// ScalarTableFunc is the TableFunc name of a scalar function called in
// FROM: its one argument is the call, its one row the value.
const ScalarTableFunc = "scalar"

// ScalarRowTableFunc is the TableFunc name of a scalar function returning
// a composite type called in FROM: one row of the composite's fields (its
// Args are the call).
const ScalarRowTableFunc = "scalar row"
