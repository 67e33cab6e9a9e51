package parser

// TruncateStatement is TRUNCATE [TABLE] [ONLY] name [*], ...
// [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT], parsed by the
// front end (TiDB's TRUNCATE takes one table and no options).
type TruncateStatement struct {
	Tables []string
	// Only marks the tables named after ONLY (their heirs and
	// partitions not truncated with them), one flag per table.
	Only []bool
	// RestartIdentity resets the sequences the tables' columns own.
	RestartIdentity bool
	Cascade         bool
	// Pos is the byte offset of the first table name, for errors.
	Pos int
}

func (r *rewriter) truncateStmt() (*TruncateStatement, error) {
	if !r.peek(0, "truncate") {
		return nil, nil
	}
	k := 1
	if r.peek(k, "table") {
		k++
	}
	st := &TruncateStatement{Pos: r.pos(min(k, len(r.toks)-1))}
	tables, only, k, err := r.relationList(k)
	if err != nil {
		return nil, err
	}
	st.Tables, st.Only = tables, only
	for k < len(r.toks) {
		switch {
		case r.peek(k, "restart") && r.peek(k+1, "identity"):
			st.RestartIdentity, k = true, k+2
		case r.peek(k, "continue") && r.peek(k+1, "identity"):
			st.RestartIdentity, k = false, k+2
		case r.peek(k, "cascade"):
			st.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		default:
			return nil, r.syntaxErrorAt(k)
		}
	}
	return st, nil
}

// relationList reads [ONLY] name [*], ... from token k (TRUNCATE's and
// LOCK's lists) and returns the names, whether each had ONLY, and the
// token after the list.
func (r *rewriter) relationList(k int) ([]string, []bool, int, error) {
	var names []string
	var only []bool
	for {
		o := r.peek(k, "only")
		if o {
			k++
		}
		name, next, err := r.relationName(k)
		if err != nil {
			return nil, nil, k, err
		}
		names, only = append(names, name), append(only, o)
		k = next
		if r.peek(k, "*") {
			k++
		}
		if !r.peek(k, ",") {
			return names, only, k, nil
		}
		k++
	}
}
