package parser

import (
	"github.com/zproxy/zproxy/internal/pgerr"
)

// ConstraintSyntax holds the parts of PostgreSQL's constraint syntax that
// TiDB's grammar lacks, lifted out of the text by the rewriter: names of
// column constraints other than CHECK, NULLS [NOT] DISTINCT, NOT VALID and
// the ALTER TABLE forms DROP CONSTRAINT IF EXISTS ... CASCADE and VALIDATE
// CONSTRAINT.
type ConstraintSyntax struct {
	// ColumnNames maps a column (as folded) to the names its column
	// constraints were given with CONSTRAINT name, by the constraint's
	// first word: "unique", "primary", "references", "not", "null",
	// "check".
	ColumnNames map[string]map[string]string
	// ColumnNullsNotDistinct lists the columns declared UNIQUE NULLS NOT
	// DISTINCT.
	ColumnNullsNotDistinct map[string]bool
	// TableNullsNotDistinct[i] is set when the i-th table constraint of
	// CREATE TABLE (counting every table constraint, in order, as TiDB's
	// CreateTableStmt.Constraints does) is UNIQUE NULLS NOT DISTINCT.
	TableNullsNotDistinct map[int]bool
	// IndexNullsNotDistinct: CREATE UNIQUE INDEX ... NULLS NOT DISTINCT.
	IndexNullsNotDistinct bool
	// Specs has one entry per ALTER TABLE action, in order.
	Specs []AlterSpecSyntax
}

// AlterSpecSyntax is what the rewriter lifted from one ALTER TABLE action.
type AlterSpecSyntax struct {
	// NotValid: ADD CONSTRAINT ... NOT VALID.
	NotValid bool
	// NullsNotDistinct: ADD UNIQUE NULLS NOT DISTINCT.
	NullsNotDistinct bool
	// IfExists and Cascade: DROP CONSTRAINT IF EXISTS name CASCADE.
	IfExists bool
	Cascade  bool
	// Validate: VALIDATE CONSTRAINT name, which reaches TiDB as ALTER
	// CONSTRAINT name ENFORCED (an AlterTableAlterCheck spec).
	Validate bool
}

func (r *rewriter) constraintSyntax() *ConstraintSyntax {
	if r.st.Constraints == nil {
		r.st.Constraints = &ConstraintSyntax{}
	}
	return r.st.Constraints
}

// columnConstraint handles, at token k of the definition of column col
// (which ends before end), the constraint syntax TiDB cannot parse. It
// returns the token to go on from, and false when there was nothing to do.
func (r *rewriter) columnConstraint(col string, k, end int) (int, bool, error) {
	switch {
	case r.peek(k, "constraint") && k+2 < end && !r.peek(k+2, "check"):
		// CONSTRAINT name UNIQUE | PRIMARY KEY | REFERENCES | NOT NULL:
		// TiDB only names CHECK constraints.
		cs := r.constraintSyntax()
		if cs.ColumnNames == nil {
			cs.ColumnNames = map[string]map[string]string{}
		}
		if cs.ColumnNames[col] == nil {
			cs.ColumnNames[col] = map[string]string{}
		}
		cs.ColumnNames[col][r.toks[k+2].val] = r.toks[k+1].val
		r.drop(k, k+2)
		return k + 2, true, nil
	case r.peek(k, "unique"):
		next, nnd := r.nullsDistinct(k + 1)
		if nnd {
			cs := r.constraintSyntax()
			if cs.ColumnNullsNotDistinct == nil {
				cs.ColumnNullsNotDistinct = map[string]bool{}
			}
			cs.ColumnNullsNotDistinct[col] = true
		}
		return next, true, nil
	}
	if r.peek(k, "set") && (r.peek(k+1, "null") || r.peek(k+1, "default")) {
		// ON DELETE SET NULL | SET DEFAULT: not a column's DEFAULT.
		if _, _, err := r.setNullColumns(k+1, end); err != nil {
			return k, true, err
		}
		return k + 2, true, nil
	}
	return r.deferrable(k, end)
}

// nullsDistinct drops NULLS [NOT] DISTINCT at k and reports NOT DISTINCT.
func (r *rewriter) nullsDistinct(k int) (int, bool) {
	switch {
	case r.peek(k, "nulls") && r.peek(k+1, "distinct"):
		r.drop(k, k+2)
		return k + 2, false
	case r.peek(k, "nulls") && r.peek(k+1, "not") && r.peek(k+2, "distinct"):
		r.drop(k, k+3)
		return k + 3, true
	}
	return k, false
}

// deferrable drops [NOT] DEFERRABLE and INITIALLY IMMEDIATE: a constraint
// checked immediately is what zproxy enforces (SET CONSTRAINTS, which would
// defer a DEFERRABLE one, does not exist). INITIALLY DEFERRED is refused.
func (r *rewriter) deferrable(k, end int) (int, bool, error) {
	switch {
	case r.peek(k, "not") && r.peek(k+1, "deferrable"):
		r.drop(k, k+2)
		return k + 2, true, nil
	case r.peek(k, "deferrable"):
		r.drop(k, k+1)
		return k + 1, true, nil
	case r.peek(k, "initially") && r.peek(k+1, "immediate"):
		r.drop(k, k+2)
		return k + 2, true, nil
	case r.peek(k, "initially") && r.peek(k+1, "deferred"):
		return k, true, pgerr.New(pgerr.FeatureNotSupported, "INITIALLY DEFERRED constraints are not supported").WithPosition(r.pos(k))
	}
	return k, false, nil
}

// setNullColumns refuses PostgreSQL 15's ON DELETE SET NULL (columns).
func (r *rewriter) setNullColumns(k, end int) (int, bool, error) {
	if (r.peek(k, "null") || r.peek(k, "default")) && r.peek(k-1, "set") && r.peek(k+1, "(") && k+1 < end {
		return k, true, pgerr.New(pgerr.FeatureNotSupported, "ON DELETE SET %s with a column list is not supported", r.toks[k].val).WithPosition(r.pos(k + 1))
	}
	return k, false, nil
}

// tableConstraint handles the table constraint [e, end) of CREATE TABLE
// (or of ALTER TABLE ... ADD); n is its position among the table's
// constraints. It returns whether it was UNIQUE NULLS NOT DISTINCT.
func (r *rewriter) tableConstraint(e, end int) (bool, error) {
	k := e
	if r.peek(k, "constraint") {
		k += 2
	}
	if r.peek(k, "exclude") {
		return false, pgerr.New(pgerr.FeatureNotSupported, "EXCLUDE constraints are not supported").WithPosition(r.pos(k))
	}
	nnd := false
	for ; k < end; k++ {
		if r.peek(k, "unique") {
			_, nnd = r.nullsDistinct(k + 1)
			continue
		}
		next, done, err := r.deferrable(k, end)
		if err != nil {
			return false, err
		}
		if !done {
			if _, _, err := r.setNullColumns(k, end); err != nil {
				return false, err
			}
		} else {
			k = next - 1
		}
	}
	return nnd, nil
}

// createTableConstraint records the NULLS NOT DISTINCT of the n-th table
// constraint of CREATE TABLE [e, end).
func (r *rewriter) createTableConstraint(n, e, end int) error {
	nnd, err := r.tableConstraint(e, end)
	if err != nil || !nnd {
		return err
	}
	cs := r.constraintSyntax()
	if cs.TableNullsNotDistinct == nil {
		cs.TableNullsNotDistinct = map[int]bool{}
	}
	cs.TableNullsNotDistinct[n] = true
	return nil
}

// alterTable respells the constraint actions of ALTER TABLE for TiDB:
// ONLY is dropped; ADD ... NOT VALID, DROP CONSTRAINT IF EXISTS ...
// CASCADE | RESTRICT and VALIDATE CONSTRAINT become AlterSpecSyntax. head
// is the ALTER token.
func (r *rewriter) alterTable(head int) error {
	k := head + 2
	if !r.peek(head+1, "table") {
		return nil
	}
	if r.peek(k, "only") {
		r.drop(k, k+1)
		k++
	}
	k, err := r.skipName(k)
	if err != nil {
		return err
	}
	cs := r.constraintSyntax()
	for k < len(r.toks) {
		// One action runs to the next comma at depth 0.
		end := k
		for depth := 0; end < len(r.toks); end++ {
			if r.toks[end].is("(") {
				depth++
			} else if r.toks[end].is(")") {
				depth--
			} else if depth == 0 && r.toks[end].is(",") {
				break
			}
		}
		var spec AlterSpecSyntax
		switch {
		case r.peek(k, "add") && !r.peek(k+1, "column"):
			last := end
			if last-2 > k && r.peek(last-2, "not") && r.peek(last-1, "valid") {
				spec.NotValid = true
				r.drop(last-2, last)
				last -= 2
			}
			if spec.NullsNotDistinct, err = r.tableConstraint(k+1, last); err != nil {
				return err
			}
			if err := r.tableCheck(k+1, last); err != nil {
				return err
			}
		case r.peek(k, "drop") && r.peek(k+1, "constraint"):
			j := k + 2
			if r.peek(j, "if") && r.peek(j+1, "exists") {
				spec.IfExists = true
				r.drop(j, j+2)
			}
			if last := end - 1; last > j && (r.peek(last, "cascade") || r.peek(last, "restrict")) {
				spec.Cascade = r.toks[last].is("cascade")
				r.drop(last, last+1)
			}
		case r.peek(k, "validate") && r.peek(k+1, "constraint") && k+3 == end:
			spec.Validate = true
			r.replace(k, "alter")
			r.ed[k+2].post = " enforced"
		}
		cs.Specs = append(cs.Specs, spec)
		k = end + 1
	}
	return nil
}
