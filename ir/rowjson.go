package ir

// wholeRowFunc names the expression a whole-row reference becomes.
const WholeRowFunc = "row"

// IsWholeRow reports whether e is a whole-row reference (json_agg puts a
// line break between rows, as between composite values).
func IsWholeRow(e Expr) bool {
	f, ok := e.(*Func)
	return ok && f.Name == WholeRowFunc
}
