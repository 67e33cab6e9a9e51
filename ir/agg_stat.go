package ir

// orderedSetAggs are the ordered-set aggregates, by their number of
// direct arguments.
var OrderedSetAggs = map[string]int{"percentile_cont": 1, "percentile_disc": 1, "mode": 0}

// IsOrderedSet reports whether f is an ordered-set aggregate (its AggCall
// holds the sorted value, then the direct arguments).
func IsOrderedSet(f AggFunc) bool {
	_, ok := OrderedSetAggs[string(f)]
	return ok
}
