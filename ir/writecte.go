package ir

// WritesOf lists a bound statement's data-modifying WITH queries.
func WritesOf(st Statement) []*CTE {
	switch s := st.(type) {
	case *Query:
		return s.Writes
	case *Insert:
		return s.Writes
	case *Update:
		return s.Writes
	case *Delete:
		return s.Writes
	case *Merge:
		return s.Writes
	}
	return nil
}
