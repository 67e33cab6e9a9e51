package ir

import "github.com/zproxy/zproxy/internal/builtins"

// IsOrderedSet reports whether f is an ordered-set aggregate (its AggCall
// holds the sorted value, then the direct arguments); the registry of
// package builtins says which are.
func IsOrderedSet(f AggFunc) bool {
	def, ok := builtins.LookupAggregate(string(f))
	return ok && def.OrderedSet
}
