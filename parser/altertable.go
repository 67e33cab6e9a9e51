package parser

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// AlterTableStatement is ALTER TABLE (and ALTER INDEX ... RENAME) in
// PostgreSQL's spelling, parsed by zproxy's front end: TiDB's grammar is
// MySQL's (MODIFY COLUMN, no SET NOT NULL, no ALTER COLUMN TYPE). The
// statement has no AST. Statements whose actions include a table
// constraint (ADD [CONSTRAINT] UNIQUE | FOREIGN KEY | CHECK | PRIMARY KEY,
// DROP CONSTRAINT, VALIDATE CONSTRAINT) are left to TiDB's grammar.
type AlterTableStatement struct {
	// Table is the table (or, for AlterRenameIndex, the index) named.
	Table    string
	IfExists bool
	// Only is ALTER TABLE ONLY: the actions are not the table's
	// descendants' (PostgreSQL refuses most such on a partitioned table).
	Only    bool
	Actions []AlterAction
	// Pos is the byte offset of the name, for errors.
	Pos int
}

// AlterKind is the kind of one ALTER TABLE action.
type AlterKind string

// ALTER TABLE actions.
const (
	AlterAddColumn    AlterKind = "add_column"
	AlterDropColumn   AlterKind = "drop_column"
	AlterRenameColumn AlterKind = "rename_column"
	AlterRenameTable  AlterKind = "rename_table"
	AlterSetDefault   AlterKind = "set_default"
	AlterDropDefault  AlterKind = "drop_default"
	AlterSetNotNull   AlterKind = "set_not_null"
	AlterDropNotNull  AlterKind = "drop_not_null"
	AlterColumnType   AlterKind = "alter_type"
	AlterSetOptions   AlterKind = "set_options"
	AlterResetOptions AlterKind = "reset_options"
	AlterRenameIndex  AlterKind = "rename_index"
	// AlterAddIdentity is ALTER COLUMN ... ADD GENERATED {ALWAYS | BY
	// DEFAULT} AS IDENTITY [(options)] (Identity).
	AlterAddIdentity AlterKind = "add_identity"
	// AlterPrimaryKey sets the primary key: ADD [CONSTRAINT name] PRIMARY
	// KEY (cols) on a table without one, ALTER PRIMARY KEY USING COLUMNS
	// (cols) (CockroachDB's spelling), or PostgreSQL's DROP CONSTRAINT
	// pkey, ADD PRIMARY KEY (cols) in one statement.
	AlterPrimaryKey AlterKind = "primary_key"
	// AlterDetachPartition is DETACH PARTITION Column (partition.go).
	AlterDetachPartition AlterKind = "detach_partition"
	// AlterAttachPartition is ATTACH PARTITION Column Bound.
	AlterAttachPartition AlterKind = "attach_partition"
	// AlterAttachIndex is ALTER INDEX Table ATTACH PARTITION Column: the
	// index Column of a partition becomes a partition of the partitioned
	// index Table.
	AlterAttachIndex AlterKind = "attach_index"
)

// KeyPart is one column of a key, as written.
type KeyPart struct {
	Column string
	Desc   bool
}

// AlterAction is one action of ALTER TABLE.
type AlterAction struct {
	Kind AlterKind
	// Column is the column acted on; NewName the new name of RENAME.
	Column  string
	NewName string
	// SetSchema marks SET SCHEMA NewName, read as AlterRenameTable: the
	// binder makes NewName the relation's name in that schema.
	SetSchema bool
	// IfExists (DROP COLUMN) and IfNotExists (ADD COLUMN).
	IfExists, IfNotExists bool
	// Cascade is DROP COLUMN ... CASCADE.
	Cascade bool
	// ColumnDef and Extras describe ADD COLUMN's column as CREATE TABLE
	// would (Extras may be nil); ColumnConstraints is what the rewriter
	// lifted from its column constraints (names, deferral; may be nil).
	ColumnDef         *ast.ColumnDef
	Extras            *ColumnExtras
	ColumnConstraints *ConstraintSyntax
	// Default is SET DEFAULT's expression text.
	Default string
	// Identity is ADD GENERATED ... AS IDENTITY's.
	Identity *Identity
	// Type and Using are ALTER COLUMN TYPE's new type and USING text;
	// UsingOffset is the byte offset of that text in the query string, for
	// errors that point into it.
	Type        sqltypes.Type
	Using       string
	UsingOffset int
	// Options are SET (key = value, ...); Reset the keys of RESET (...).
	Options map[string]string
	Reset   []string
	// OptionOrder are Options' keys in the order written.
	OptionOrder []string
	// Key is AlterPrimaryKey's columns; DropConstraint the constraint a
	// PostgreSQL-style key change drops first (the old key's name).
	Key            []KeyPart
	KeyName        string // ADD CONSTRAINT KeyName PRIMARY KEY
	DropConstraint string
	// ReplaceKey is set for the forms that replace an existing key (ALTER
	// PRIMARY KEY, or DROP CONSTRAINT with ADD PRIMARY KEY).
	ReplaceKey bool
	// Bound is ATTACH PARTITION's FOR VALUES ... or DEFAULT.
	Bound *BoundSyntax
	// Pos is the byte offset of the action, for errors.
	Pos int
}

// alterTableStmt parses ALTER TABLE and ALTER INDEX ... RENAME; nil when
// the statement is not one it handles.
func (r *rewriter) alterTableStmt() (*AlterTableStatement, error) {
	if !r.peek(0, "alter") {
		return nil, nil
	}
	if r.peek(1, "index") {
		return r.alterIndex()
	}
	if !r.peek(1, "table") {
		return nil, nil
	}
	if st, err := r.alterPrimaryKey(); err != nil || st != nil {
		return st, err
	}
	if r.constraintActions() {
		return nil, nil // constraints: TiDB's grammar (see AlterTableStatement)
	}
	k := 2
	st := &AlterTableStatement{}
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		st.IfExists, k = true, k+2
	}
	if r.peek(k, "only") {
		st.Only, k = true, k+1
	}
	st.Pos = r.pos(k)
	name, k, err := r.relationName(k)
	if err != nil {
		return nil, err
	}
	st.Table = name
	if r.peek(k, "*") {
		k++
	}
	for {
		a, next, err := r.alterAction(k)
		if err != nil {
			return nil, err
		}
		if (a.Kind == AlterRenameColumn || a.Kind == AlterRenameTable) && (len(st.Actions) > 0 || next < len(r.toks)) {
			return nil, r.syntaxErrorAt(min(next, len(r.toks)-1))
		}
		st.Actions = append(st.Actions, a)
		k = next
		if k >= len(r.toks) {
			return st, nil
		}
		if !r.peek(k, ",") {
			return nil, r.syntaxErrorAt(k)
		}
		k++
	}
}

// alterIndex parses ALTER INDEX [IF EXISTS] name RENAME TO new and
// ALTER INDEX name ATTACH PARTITION index.
func (r *rewriter) alterIndex() (*AlterTableStatement, error) {
	k := 2
	st := &AlterTableStatement{}
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		st.IfExists, k = true, k+2
	}
	st.Pos = r.pos(k)
	name, k, err := r.relationName(k)
	if err != nil {
		return nil, err
	}
	if r.peek(k, "attach") && r.peek(k+1, "partition") && !st.IfExists {
		part, next, err := r.relationName(k + 2)
		if err != nil {
			return nil, err
		}
		if next < len(r.toks) {
			return nil, r.syntaxErrorAt(next)
		}
		st.Table = name
		st.Actions = []AlterAction{{Kind: AlterAttachIndex, Column: part, Pos: r.pos(k)}}
		return st, nil
	}
	if !r.peek(k, "rename") || !r.peek(k+1, "to") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER INDEX supports only RENAME TO and ATTACH PARTITION").WithPosition(r.pos(min(k, len(r.toks)-1)))
	}
	to, next, err := r.relationName(k + 2)
	if err != nil {
		return nil, err
	}
	if next < len(r.toks) {
		return nil, r.syntaxErrorAt(next)
	}
	st.Table = name
	st.Actions = []AlterAction{{Kind: AlterRenameIndex, NewName: to, Pos: r.pos(k)}}
	return st, nil
}

// ident reads an identifier at k.
func (r *rewriter) ident(k int) (string, int, error) {
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return "", k, r.syntaxErrorAt(k)
	}
	return r.toks[k].val, k + 1, nil
}

// actionEnd is where the action starting at k ends: the next comma at
// parenthesis depth 0, or the end of the statement.
func (r *rewriter) actionEnd(k int) int {
	depth := 0
	for ; k < len(r.toks); k++ {
		switch {
		case r.toks[k].is("(") || r.toks[k].is("["):
			depth++
		case r.toks[k].is(")") || r.toks[k].is("]"):
			depth--
		case depth == 0 && r.toks[k].is(","):
			return k
		}
	}
	return k
}

func (r *rewriter) alterAction(k int) (AlterAction, int, error) {
	a := AlterAction{Pos: r.pos(min(k, len(r.toks)-1))}
	var err error
	switch {
	case r.peek(k, "add"):
		k++
		if r.peek(k, "column") {
			k++
		}
		if r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists") {
			a.IfNotExists, k = true, k+3
		}
		end := r.actionEnd(k)
		if end == k {
			return a, k, r.syntaxErrorAt(k)
		}
		const prefix = "CREATE TABLE zp_alter ("
		stmts, perr := Parse(prefix + r.sql[r.toks[k].start:r.toks[end-1].end] + ")")
		// moved is a position in that CREATE TABLE's text moved to this
		// text's.
		moved := func(pos int) int {
			if pos > len(prefix) {
				return r.pos(k) + pos - len(prefix) - 1
			}
			return r.pos(k)
		}
		if perr != nil {
			// The column fails as it would in CREATE TABLE, with that
			// statement's SQLSTATE; only its position moves to this text.
			pe := pgerr.Classify(perr)
			out := *pe
			out.Position = moved(pe.Position)
			return a, k, &out
		}
		ct, ok := stmts[0].AST.(*ast.CreateTableStmt)
		if !ok || len(ct.Cols) != 1 || len(ct.Constraints) > 0 {
			return a, k, r.syntaxErrorAt(k)
		}
		a.Kind, a.ColumnDef, a.Column = AlterAddColumn, ct.Cols[0], ct.Cols[0].Name.Name.O
		a.Extras = stmts[0].Columns[a.Column]
		if a.Extras != nil && a.Extras.TypePosition > 0 {
			a.Extras.TypePosition = moved(a.Extras.TypePosition)
		}
		if a.Extras != nil {
			a.Extras.DefaultOffset = 0 // (an offset into the CREATE TABLE text parsed here, not the client's)
		}
		a.ColumnConstraints = stmts[0].Constraints
		return a, end, nil
	case r.peek(k, "drop"):
		k++
		if r.peek(k, "column") {
			k++
		}
		if r.peek(k, "if") && r.peek(k+1, "exists") {
			a.IfExists, k = true, k+2
		}
		a.Kind = AlterDropColumn
		if a.Column, k, err = r.ident(k); err != nil {
			return a, k, err
		}
		switch {
		case r.peek(k, "cascade"):
			a.Cascade, k = true, k+1
		case r.peek(k, "restrict"):
			k++
		}
		return a, k, nil
	case r.peek(k, "rename"):
		k++
		if r.peek(k, "to") {
			a.Kind = AlterRenameTable
			a.NewName, k, err = r.relationName(k + 1)
			return a, k, err
		}
		if r.peek(k, "column") {
			k++
		}
		a.Kind = AlterRenameColumn
		if a.Column, k, err = r.ident(k); err != nil {
			return a, k, err
		}
		if !r.peek(k, "to") {
			return a, k, r.syntaxErrorAt(k)
		}
		a.NewName, k, err = r.ident(k + 1)
		return a, k, err
	case r.peek(k, "alter"):
		k++
		if r.peek(k, "column") {
			k++
		}
		if a.Column, k, err = r.ident(k); err != nil {
			return a, k, err
		}
		switch {
		case r.peek(k, "set") && r.peek(k+1, "default"):
			end := r.actionEnd(k + 2)
			if end == k+2 {
				return a, k, r.syntaxErrorAt(k + 2)
			}
			a.Kind, a.Default = AlterSetDefault, r.sql[r.toks[k+2].start:r.toks[end-1].end]
			return a, end, nil
		case r.peek(k, "drop") && r.peek(k+1, "default"):
			a.Kind = AlterDropDefault
			return a, k + 2, nil
		case r.peek(k, "add") && r.peek(k+1, "generated"):
			id := &Identity{}
			j := k + 2
			switch {
			case r.peek(j, "always"):
				id.Always, j = true, j+1
			case r.peek(j, "by") && r.peek(j+1, "default"):
				j += 2
			default:
				return a, j, r.syntaxErrorAt(j)
			}
			if !r.peek(j, "as") || !r.peek(j+1, "identity") {
				return a, j, r.syntaxErrorAt(j)
			}
			j += 2
			if r.peek(j, "(") {
				close := r.matching(j)
				if close < 0 {
					return a, j, r.syntaxErrorAt(len(r.toks))
				}
				id.Options = r.sql[r.toks[j+1].start:r.toks[close-1].end]
				j = close + 1
			}
			a.Kind, a.Identity = AlterAddIdentity, id
			return a, j, nil
		case r.peek(k, "set") && r.peek(k+1, "not") && r.peek(k+2, "null"):
			a.Kind = AlterSetNotNull
			return a, k + 3, nil
		case r.peek(k, "drop") && r.peek(k+1, "not") && r.peek(k+2, "null"):
			a.Kind = AlterDropNotNull
			return a, k + 3, nil
		case r.peek(k, "type") || r.peek(k, "set") && r.peek(k+1, "data") && r.peek(k+2, "type"):
			if r.peek(k, "set") {
				k += 2
			}
			typ, next, terr := r.parseType(k + 1)
			if terr != nil {
				return a, k, terr
			}
			a.Kind, a.Type, k = AlterColumnType, typ, next
			if r.peek(k, "collate") {
				return a, k, pgerr.New(pgerr.FeatureNotSupported, "COLLATE is not supported").WithPosition(r.pos(k))
			}
			if r.peek(k, "using") {
				end := r.actionEnd(k + 1)
				if end == k+1 {
					return a, k, r.syntaxErrorAt(k + 1)
				}
				a.Using, a.UsingOffset, k = r.sql[r.toks[k+1].start:r.toks[end-1].end], r.toks[k+1].start, end
			}
			return a, k, nil
		}
		return a, k, pgerr.New(pgerr.FeatureNotSupported, "this ALTER COLUMN form is not supported").WithPosition(r.pos(min(k, len(r.toks)-1)))
	case r.peek(k, "set") && r.peek(k+1, "schema"):
		// SET SCHEMA s: a rename into schema s (SetSchema).
		name, err := r.name(k + 2)
		if err != nil {
			return a, k, err
		}
		a.Kind, a.NewName, a.SetSchema = AlterRenameTable, name, true
		return a, k + 3, nil
	case r.peek(k, "set") && r.peek(k+1, "("):
		save, saveOrder := r.st.With, r.st.WithOrder
		r.st.With, r.st.WithOrder = nil, nil
		end, werr := r.withOptions(k)
		a.Kind, a.Options, a.OptionOrder = AlterSetOptions, r.st.With, r.st.WithOrder
		r.st.With, r.st.WithOrder = save, saveOrder
		return a, end, werr
	case r.peek(k, "reset") && r.peek(k+1, "("):
		close := r.matching(k + 1)
		if close < 0 {
			return a, k, r.syntaxErrorAt(len(r.toks))
		}
		a.Kind = AlterResetOptions
		// Each element is name or namespace.name (toast.fillfactor); a
		// value (name = v) is in the grammar but refused, as PostgreSQL's
		// transformRelOptions refuses it.
		valued := false
		for j := k + 2; j < close; j++ {
			if r.toks[j].kind != tkIdent && r.toks[j].kind != tkQIdent {
				return a, j, r.syntaxErrorAt(j)
			}
			name := r.toks[j].val
			if r.toks[j+1].is(".") && j+2 < close && (r.toks[j+2].kind == tkIdent || r.toks[j+2].kind == tkQIdent) {
				name += "." + r.toks[j+2].val
				j += 2
			}
			a.Reset = append(a.Reset, name)
			if r.toks[j+1].is("=") {
				valued = true
				for j+1 < close && !r.toks[j+1].is(",") {
					j++
				}
			}
			if j+1 < close {
				if !r.toks[j+1].is(",") {
					return a, j + 1, r.syntaxErrorAt(j + 1)
				}
				j++
			}
		}
		if valued {
			return a, k, pgerr.New(pgerr.SyntaxError, "RESET must not include values for parameters")
		}
		return a, close + 1, nil
	case r.peek(k, "detach") && r.peek(k+1, "partition"):
		// DETACH PARTITION [schema.]name: the partition becomes a table
		// of its own.
		name, next, err := r.relationName(k + 2)
		if err != nil {
			return a, k, err
		}
		if r.peek(next, "concurrently") || r.peek(next, "finalize") {
			return a, k, pgerr.New(pgerr.FeatureNotSupported, "DETACH PARTITION %s is not supported", strings.ToUpper(r.toks[next].val)).WithPosition(r.pos(next))
		}
		a.Kind, a.Column = AlterDetachPartition, name
		return a, next, nil
	case r.peek(k, "attach") && r.peek(k+1, "partition"):
		// ATTACH PARTITION [schema.]name {FOR VALUES ... | DEFAULT}: an
		// existing table becomes a partition (pg_dump qualifies it).
		name, next, err := r.relationName(k + 2)
		if err != nil {
			return a, k, err
		}
		a.Kind, a.Column = AlterAttachPartition, name
		var ps PartitionSyntax
		next, err = r.partitionBound(next, &ps)
		a.Bound = ps.Bound
		return a, next, err
	}
	return a, k, pgerr.New(pgerr.FeatureNotSupported, "this ALTER TABLE form is not supported").WithPosition(r.pos(min(k, len(r.toks)-1)))
}

// alterPrimaryKey parses the primary-key changes (see AlterPrimaryKey);
// nil when the statement is none of them.
func (r *rewriter) alterPrimaryKey() (*AlterTableStatement, error) {
	k := 2
	st := &AlterTableStatement{}
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		st.IfExists, k = true, k+2
	}
	if r.peek(k, "only") {
		st.Only, k = true, k+1
	}
	pos := r.pos(min(k, len(r.toks)-1))
	name, k, err := r.relationName(k)
	if err != nil {
		return nil, nil // not ours: let the other parsers report it
	}
	a := AlterAction{Kind: AlterPrimaryKey, Pos: pos}
	if r.peek(k, "drop") && r.peek(k+1, "constraint") {
		// DROP CONSTRAINT name, ADD [CONSTRAINT n] PRIMARY KEY (...)
		j := k + 2
		if r.peek(j, "if") && r.peek(j+1, "exists") {
			j += 2
		}
		c, next, err := r.ident(j)
		if err != nil || !r.peek(next, ",") {
			return nil, nil
		}
		a.DropConstraint, a.ReplaceKey, k = c, true, next+1
	}
	switch {
	case r.peek(k, "alter") && r.peek(k+1, "primary") && r.peek(k+2, "key") && r.peek(k+3, "using") && r.peek(k+4, "columns") && a.DropConstraint == "":
		k += 5
		a.ReplaceKey = true
	case r.peek(k, "add") && r.peek(k+1, "constraint") && r.peek(k+3, "primary") && r.peek(k+4, "key"):
		a.KeyName = r.toks[k+2].val
		k += 5
	case r.peek(k, "add") && r.peek(k+1, "primary") && r.peek(k+2, "key"):
		k += 3
	default:
		return nil, nil
	}
	if !r.peek(k, "(") {
		return nil, r.syntaxErrorAt(min(k, len(r.toks)-1))
	}
	close := r.matching(k)
	if close < 0 {
		return nil, r.syntaxErrorAt(len(r.toks))
	}
	for j := k + 1; j < close; j++ {
		c, next, err := r.ident(j)
		if err != nil {
			return nil, err
		}
		part := KeyPart{Column: c}
		switch {
		case r.peek(next, "desc"):
			part.Desc, next = true, next+1
		case r.peek(next, "asc"):
			next++
		}
		a.Key = append(a.Key, part)
		j = next
		if j < close && !r.peek(j, ",") {
			return nil, r.syntaxErrorAt(j)
		}
	}
	if close+1 < len(r.toks) {
		return nil, r.syntaxErrorAt(close + 1)
	}
	st.Table, st.Pos, st.Actions = name, pos, []AlterAction{a}
	return st, nil
}
