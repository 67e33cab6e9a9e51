package parser

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

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
	// ColumnDeferral and TableDeferral (by table constraint, as
	// TableNullsNotDistinct) say what [NOT] DEFERRABLE [INITIALLY
	// DEFERRED | IMMEDIATE] made of a column's or table constraint's
	// UNIQUE or REFERENCES: see Deferral.
	ColumnDeferral map[string]string
	TableDeferral  map[int]string
	// Specs has one entry per ALTER TABLE action, in order.
	Specs []AlterSpecSyntax
	// TableIfExists: ALTER TABLE IF EXISTS (a missing table is a NOTICE).
	TableIfExists bool
	// TableOnly: ALTER TABLE ONLY (a partitioned table's constraint must
	// be its partitions' too, 42P16).
	TableOnly bool
	// Excludes are the exclusion constraints, each replaced in the text by
	// a CHECK (zp_exclude(n)) (exclude.go).
	Excludes []ExcludeSyntax
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
	// Deferral of the added constraint (see Deferral).
	Deferral string
	// RenameConstraint: RENAME CONSTRAINT a TO b, which reaches TiDB as
	// RENAME INDEX a TO b (an AlterTableRenameIndex spec).
	RenameConstraint bool
}

// Deferral values: what a constraint's DEFERRABLE clause says.
const (
	// Deferrable: DEFERRABLE [INITIALLY IMMEDIATE].
	Deferrable = "deferrable"
	// InitiallyDeferred: [DEFERRABLE] INITIALLY DEFERRED.
	InitiallyDeferred = "deferred"
)

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
	d := ""
	next, done := r.deferrable(k, &d)
	if d != "" {
		cs := r.constraintSyntax()
		if cs.ColumnDeferral == nil {
			cs.ColumnDeferral = map[string]string{}
		}
		if d == InitiallyDeferred || cs.ColumnDeferral[col] == "" {
			cs.ColumnDeferral[col] = d
		}
	}
	return next, done, nil
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

// deferrable drops a DEFERRABLE clause's words at k, noting in d what
// they make of the constraint (see Deferral).
func (r *rewriter) deferrable(k int, d *string) (int, bool) {
	switch {
	case r.peek(k, "not") && r.peek(k+1, "deferrable"):
		r.drop(k, k+2)
		return k + 2, true
	case r.peek(k, "deferrable"):
		r.drop(k, k+1)
		if *d == "" {
			*d = Deferrable
		}
		return k + 1, true
	case r.peek(k, "initially") && r.peek(k+1, "immediate"):
		r.drop(k, k+2)
		return k + 2, true
	case r.peek(k, "initially") && r.peek(k+1, "deferred"):
		r.drop(k, k+2)
		*d = InitiallyDeferred
		return k + 2, true
	}
	return k, false
}

// setNullColumns refuses PostgreSQL 15's ON DELETE SET NULL (columns).
func (r *rewriter) setNullColumns(k, end int) (int, bool, error) {
	if (r.peek(k, "null") || r.peek(k, "default")) && r.peek(k-1, "set") && r.peek(k+1, "(") && k+1 < end {
		return k, true, pgerr.New(pgerr.FeatureNotSupported, "ON DELETE SET %s with a column list is not supported", r.toks[k].val).WithPosition(r.pos(k + 1))
	}
	return k, false, nil
}

// constraintAttrs are what a table constraint says beyond what TiDB reads.
type constraintAttrs struct {
	nullsNotDistinct bool
	deferral         string
	notValid         bool
}

// tableConstraint handles the table constraint [e, end) of CREATE TABLE
// (or of ALTER TABLE ... ADD), dropping the words TiDB cannot parse.
func (r *rewriter) tableConstraint(e, end int) (constraintAttrs, error) {
	var a constraintAttrs
	k := e
	if r.peek(k, "constraint") {
		k += 2
	}
	if r.peek(k, "exclude") {
		return a, r.exclude(k, end)
	}
	for depth := 0; k < end; k++ {
		switch {
		case r.peek(k, "("):
			depth++
			continue
		case r.peek(k, ")"):
			depth--
			continue
		case depth > 0:
			continue
		case r.peek(k, "unique"):
			_, a.nullsNotDistinct = r.nullsDistinct(k + 1)
			continue
		case r.peek(k, "not") && r.peek(k+1, "valid"):
			r.drop(k, k+2)
			a.notValid = true
			k++
			continue
		}
		if next, done := r.deferrable(k, &a.deferral); done {
			k = next - 1
			continue
		}
		if _, _, err := r.setNullColumns(k, end); err != nil {
			return a, err
		}
	}
	return a, nil
}

// createTableConstraint records the NULLS NOT DISTINCT and deferral of the
// n-th table constraint of CREATE TABLE [e, end).
func (r *rewriter) createTableConstraint(n, e, end int) error {
	a, err := r.tableConstraint(e, end)
	nnd, d := a.nullsNotDistinct, a.deferral
	if err != nil || !nnd && d == "" {
		return err
	}
	cs := r.constraintSyntax()
	if nnd {
		if cs.TableNullsNotDistinct == nil {
			cs.TableNullsNotDistinct = map[int]bool{}
		}
		cs.TableNullsNotDistinct[n] = true
	}
	if d != "" {
		if cs.TableDeferral == nil {
			cs.TableDeferral = map[int]string{}
		}
		cs.TableDeferral[n] = d
	}
	return nil
}

// alterTable respells the constraint actions of ALTER TABLE for TiDB:
// IF EXISTS becomes ConstraintSyntax.TableIfExists; ONLY becomes TableOnly; ADD
// ... NOT VALID, DROP CONSTRAINT IF EXISTS ... CASCADE | RESTRICT,
// VALIDATE CONSTRAINT and RENAME CONSTRAINT become AlterSpecSyntax. head
// is the ALTER token.
func (r *rewriter) alterTable(head int) error {
	k := head + 2
	if !r.peek(head+1, "table") {
		return nil
	}
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		r.constraintSyntax().TableIfExists = true
		r.drop(k, k+2)
		k += 2
	}
	if r.peek(k, "only") {
		r.constraintSyntax().TableOnly = true
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
		end := r.commaAt(k, len(r.toks))
		var spec AlterSpecSyntax
		switch {
		case r.peek(k, "add") && !r.peek(k+1, "column"):
			a, err := r.tableConstraint(k+1, end)
			if err != nil {
				return err
			}
			spec.NullsNotDistinct, spec.Deferral, spec.NotValid = a.nullsNotDistinct, a.deferral, a.notValid
			if err := r.tableCheck(k+1, end); err != nil {
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
		case r.peek(k, "rename") && r.peek(k+1, "constraint"):
			spec.RenameConstraint = true
			r.replace(k+1, "index")
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

// SetConstraintsName is the name under which SET CONSTRAINTS {ALL | name,
// ...} {IMMEDIATE | DEFERRED} reaches the planner: a SetStmt with one
// VariableAssignment of that name (no setting can have a space in its
// name) whose value is "all" or the names, comma-separated, then a space
// and "immediate" or "deferred".
const SetConstraintsName = "set constraints"

// setConstraints builds SET CONSTRAINTS; k is the token after CONSTRAINTS.
func (r *rewriter) setConstraints(k int) (ast.StmtNode, error) {
	var names []string
	if r.peek(k, "all") {
		names = []string{"all"}
		k++
	} else {
		for {
			if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
				return nil, r.syntaxErrorAt(k)
			}
			names = append(names, r.toks[k].val)
			k++
			if !r.peek(k, ",") {
				break
			}
			k++
		}
	}
	if k+1 != len(r.toks) || !r.peek(k, "immediate") && !r.peek(k, "deferred") {
		return nil, r.syntaxErrorAt(k)
	}
	va := &ast.VariableAssignment{Name: SetConstraintsName, IsSystem: true,
		Value: ast.NewValueExpr(strings.Join(names, ",")+" "+r.toks[k].val, "", "")}
	return &ast.SetStmt{Variables: []*ast.VariableAssignment{va}}, nil
}

// constraintActions reports whether an ALTER TABLE has an action on a
// table constraint (ADD [CONSTRAINT name] UNIQUE | FOREIGN KEY | CHECK |
// PRIMARY KEY | EXCLUDE, DROP | VALIDATE | ALTER | RENAME CONSTRAINT),
// which TiDB's grammar parses. ADD COLUMN's column constraints (UNIQUE,
// REFERENCES, CHECK after the column's type) are part of its column
// definition.
func (r *rewriter) constraintActions() bool {
	for k := 2; k < len(r.toks); k++ {
		if r.peek(k, "add") && !r.peekAny(k+1, "constraint", "primary", "unique", "foreign", "check", "exclude") {
			k = r.actionEnd(k)
			continue
		}
		if r.peekAny(k, "constraint", "primary", "unique", "foreign", "check", "references", "exclude") {
			return true
		}
	}
	return false
}

// peekAny reports whether the token at i is one of words.
func (r *rewriter) peekAny(i int, words ...string) bool {
	for _, w := range words {
		if r.peek(i, w) {
			return true
		}
	}
	return false
}
