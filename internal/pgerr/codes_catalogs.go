package pgerr

// SQLSTATEs of regular expressions, arrays and the catalog types.
const (
	InvalidRegularExpression = "2201B"
	ArraySubscriptError      = "2202E"
	IndeterminateDatatype    = "42P18"
	LockNotAvailable         = "55P03"
)
