package parser

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Statement is one parsed statement of a query string.
type Statement struct {
	// AST is the TiDB syntax tree. Statements TiDB cannot parse in their
	// Postgres spelling are built by hand: SET/RESET (SetStmt, one
	// VariableAssignment, IsSystem, Value a string constant or
	// *ast.DefaultExpr for DEFAULT/RESET; RESET ALL has Name "all"), SHOW
	// name / SHOW ALL (ShowStmt{Tp: ShowVariables}, see showStmt),
	// BEGIN/START TRANSACTION, COMMIT/END, ROLLBACK/ABORT, DROP INDEX name
	// (DropIndexStmt whose Table.Name is empty) and EXPLAIN (ExplainStmt wrapping the
	// statement; the options are in Explain).
	AST ast.StmtNode
	// StartTransaction marks a BeginStmt spelt START TRANSACTION, whose
	// command tag differs from BEGIN's.
	StartTransaction bool
	// SetLocal marks SET LOCAL, whose change lasts until the end of the
	// transaction block.
	SetLocal bool
	// SetToDefault marks SET name TO DEFAULT, a reset PostgreSQL tags SET
	// (RESET name is tagged RESET).
	SetToDefault bool
	// SearchCycles are the SEARCH and CYCLE clauses of the statement's
	// WITH queries, taken out of its text (with.go).
	SearchCycles []SearchCycle
	// CurrentOf is the cursor of UPDATE or DELETE ... WHERE CURRENT OF
	// cursor, whose WHERE reads TRUE in the AST: the session narrows the
	// statement to the cursor's current row when it runs (currentof.go).
	CurrentOf string
	// Text is the statement as the client wrote it, and Offset its byte
	// offset in the whole query string.
	Text   string
	Offset int
	// SQL is the text given to TiDB ("" for hand-built statements); byte
	// offsets the AST records (ExprNode.OriginTextPosition) refer to it, and
	// Position maps them back.
	SQL string
	// NumParams is the highest $n used. ParamOrder[i] is the $n that the
	// i-th parameter marker stands for, where i is the marker's Order field
	// (markers are numbered in text order), so "$2, $1, $2" gives [2 1 2].
	NumParams  int
	ParamOrder []int
	// LockStrengths are the strengths of the statement's locking clauses
	// (FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE), in text
	// order, as written: TiDB's AST has only FOR UPDATE and FOR SHARE,
	// and pg_get_viewdef prints the clause as PostgreSQL keeps it.
	LockStrengths []string
	// LockOf are, by locking clause as LockStrengths, the positions
	// (pgerr.Error.Position) of the relations its OF list names.
	LockOf [][]int
	// UnaliasedSubqueries are the positions of the FROM items that are
	// a parenthesized query with no alias, in text order: PostgreSQL 15
	// refuses each, at its opening parenthesis.
	UnaliasedSubqueries []int
	// InsertSubscripts are the items of an INSERT's column list that
	// assign into a column through subscripts, INSERT INTO t (a[2],
	// j['k']): TiDB's grammar reads the column alone (the subscripts are
	// taken out of its text), and the binder reads each target back from
	// its text (ParseExpression, then Within at Offset).
	InsertSubscripts []InsertSubscript
	// OneBoundWindows are the windows of WINDOW clauses whose frame was
	// written with one bound, no BETWEEN, by name (pg_get_viewdef prints
	// it so).
	OneBoundWindows map[string]bool
	// With holds CREATE TABLE/INDEX ... WITH (key = value, ...): lower-case
	// keys, values unquoted (a key without a value is "true").
	With map[string]string
	// WithOrder are With's keys in the order written.
	WithOrder []string
	// IndexMethod is "btree", "zorder" or "gin" for CREATE INDEX, ""
	// otherwise.
	IndexMethod string
	// IndexOpclasses are the operator classes a gin or gist index's key parts
	// name, by key part (ordinal in the key list).
	IndexOpclasses map[int]string
	// IndexUnnamed marks CREATE INDEX ON t (...) without a name: the AST
	// holds UnnamedIndex, and the binder names the index as PostgreSQL
	// does.
	IndexUnnamed bool
	// IndexOnly marks CREATE INDEX ... ON ONLY t: a partitioned table's
	// index is not built on its partitions (ALTER INDEX ... ATTACH
	// PARTITION gives it theirs).
	IndexOnly bool
	// Concurrently marks CREATE INDEX CONCURRENTLY and DROP INDEX
	// CONCURRENTLY, which PostgreSQL refuses inside a transaction block.
	// (zproxy builds every index online, so it changes nothing else.)
	Concurrently bool
	// Include lists the INCLUDE (...) columns of CREATE INDEX.
	Include []string
	// IndexExprs are the expression keys of CREATE INDEX, as written; the
	// AST names each by a placeholder column (IndexExprPrefix + i).
	IndexExprs []IndexExpr
	// IndexWhere is the predicate of a partial index (CREATE INDEX ...
	// WHERE), as written, at byte IndexWhereOffset of Text.
	IndexWhere       string
	IndexWhereOffset int
	// OnConflict is set for INSERT ... ON CONFLICT.
	OnConflict *OnConflict
	// Overriding is INSERT's OVERRIDING "system" | "user" VALUE, or "".
	Overriding string
	// InsertAlias is INSERT INTO table AS alias's alias (TiDB's grammar
	// has none), or "".
	InsertAlias string
	// Temp marks CREATE [LOCAL | GLOBAL] TEMP[ORARY] TABLE, and OnCommit
	// is its ON COMMIT action: "preserve rows" (also when the clause is
	// absent), "delete rows" or "drop".
	// TempGlobal marks the GLOBAL spelling, which PostgreSQL accepts with
	// a deprecation warning.
	Temp       bool
	TempGlobal bool
	OnCommit   string
	// CreateAs is set for CREATE TABLE ... AS and SELECT ... INTO (the
	// table to create); AST and the rest are then the query's
	// (createas.go).
	CreateAs *CreateTableAs
	// Explain is set for EXPLAIN; AST is then an *ast.ExplainStmt.
	Explain *ExplainOptions
	// Returning is the RETURNING list of INSERT, UPDATE or DELETE.
	Returning *ast.FieldList
	// CountExprs are LIMIT and OFFSET operands TiDB's grammar cannot
	// take (anything but a literal or a parameter), parsed apart; the
	// clause holds CountExprBase + i in their place (see CountExprIndex).
	CountExprs []ast.ExprNode
	// WriteWith is the WITH clause of an INSERT, UPDATE or DELETE (TiDB's
	// grammar puts WITH before SELECT only).
	WriteWith *ast.WithClause
	// WriteCTEs are the data-modifying WITH queries (WITH d AS (DELETE ...
	// RETURNING *)), each a statement of its own; the query's body is
	// SELECT zp_write_cte(i) in its place (see WriteCTEIndex).
	// CountExprs, WriteWith and WriteCTEs of parts parsed apart (RETURNING,
	// a lifted WITH) belong to the statement.
	WriteCTEs []*Statement
	// TargetAlias is the alias of DELETE FROM t alias USING ...'s target,
	// which TiDB's multi-table DELETE cannot carry.
	TargetAlias string
	// TargetOnly marks UPDATE ONLY t and DELETE FROM ONLY t: the write
	// leaves the tables inheriting from t alone (and finds no row of a
	// partitioned t, which holds none of its own).
	TargetOnly bool
	// From is UPDATE's FROM list.
	From *ast.Join
	// ViewQuery is the text of CREATE VIEW's query.
	ViewQuery string
	// Cascade is DROP TABLE/VIEW ... CASCADE: dependent views go too.
	Cascade bool
	// Columns holds, per column of CREATE TABLE (or ALTER TABLE ADD
	// COLUMN), what TiDB's grammar cannot carry; Checks the table's CHECK
	// constraints, as text.
	Columns map[string]*ColumnExtras
	// Like holds CREATE TABLE's LIKE elements; LikeOnly marks a table
	// whose only elements they are (TiDB was given a placeholder column,
	// LikePlaceholder, which the binder drops).
	Like     []LikeClause
	LikeOnly bool
	Checks   []NamedCheck
	// Partition holds CREATE TABLE's PARTITION BY, PARTITION OF and
	// INHERITS (partition.go); nil when it has none.
	Partition *PartitionSyntax
	// Constraints holds constraint syntax TiDB's grammar lacks
	// (constraints.go); nil when there is none.
	Constraints *ConstraintSyntax
	// Role is set for CREATE/ALTER/DROP ROLE and GRANT/REVOKE; AST is then
	// nil (roles.go).
	Role *RoleStatement
	// Sequence is set for CREATE/ALTER/DROP SEQUENCE; AST is then nil
	// (sequences.go).
	Sequence *SequenceStatement
	// Alter is set for ALTER TABLE and ALTER INDEX ... RENAME; AST is
	// then nil (altertable.go).
	Alter *AlterTableStatement
	// Truncate is set for TRUNCATE; AST is then nil (truncate.go).
	Truncate *TruncateStatement
	// Reindex is set for REINDEX; AST is then nil (reindex.go).
	Reindex *ReindexStatement
	// Lock is set for LOCK; AST is then nil (lock.go).
	Lock *LockStatement
	// Owner is set for ALTER ... OWNER TO; AST is then nil (owner.go).
	Owner *OwnerStatement
	// Comment is COMMENT ON (comment.go); AST is nil then.
	Comment *CommentStatement
	// Analyze is ANALYZE or VACUUM (analyze.go); AST is nil then.
	Analyze *AnalyzeStatement
	// Extension is CREATE or DROP EXTENSION (extension.go); AST is nil
	// then.
	Extension *ExtensionStatement
	// Schema is CREATE, ALTER or DROP SCHEMA (schema.go); AST is nil then.
	Schema *SchemaStatement
	// Database is CREATE, DROP or ALTER DATABASE (database.go); AST is
	// nil then.
	Database *DatabaseStatement
	// Type is a statement on user-defined types (typestmt.go).
	Type *TypeStatement
	// Refresh is REFRESH MATERIALIZED VIEW (matview.go); AST is nil then.
	Refresh *RefreshStatement
	// Matview marks DROP, ALTER and COMMENT ON MATERIALIZED VIEW, parsed
	// as their TABLE forms (matview.go).
	Matview bool
	// AlterView marks ALTER VIEW ... RENAME, parsed as its TABLE form
	// (matview.go viewRenameAsTable).
	AlterView bool
	// Utility is set for PREPARE, EXECUTE, DEALLOCATE, DISCARD, cursors,
	// LISTEN/NOTIFY and COPY; AST is then nil (utility.go).
	Utility *UtilityStatement
	// Routine is a statement on functions and procedures, CALL or DO
	// (routine.go); AST is nil then.
	Routine *RoutineStatement
	// Trigger is a statement on triggers (trigger.go); AST is nil then.
	Trigger *TriggerStatement
	// Merge is MERGE (merge.go); AST is then a stand-in, SELECT 1 (in
	// EXPLAIN's ExplainStmt for EXPLAIN MERGE).
	Merge *MergeStatement

	query string
	segs  []seg
	// parts map the offsets of the parts parsed apart (RETURNING, LIMIT
	// operands: subParseAround), which their nodes carry shifted by
	// partBase times their number, one or more, to the query.
	parts [][]seg
	// ordinals are the positions of ORDER BY and GROUP BY ordinals
	// (ORDER BY 2), whose node TiDB builds without an offset
	// (placeOrdinals).
	ordinals map[*ast.PositionExpr]int
	// catalogQualified are the offsets in query of the calls whose
	// pg_catalog qualifier catalogCalls dropped.
	catalogQualified []int
}

// CatalogQualified reports whether the call whose name TiDB's text has
// at sqlOffset was written qualified by pg_catalog (a qualifier the
// front end drops), so that an error naming the function names it as
// PostgreSQL does, pg_catalog.f.
func (s *Statement) CatalogQualified(sqlOffset int) bool {
	if len(s.catalogQualified) == 0 {
		return false
	}
	o := s.origOffset(sqlOffset, -1)
	for _, q := range s.catalogQualified {
		if q == o {
			return true
		}
	}
	return false
}

// LikeClause is one LIKE source_table [INCLUDING | EXCLUDING option ...]
// element of CREATE TABLE, lifted out of TiDB's text.
type LikeClause struct {
	// Table is the source table's name as written (folded unless quoted),
	// Schema its qualifier, if any.
	Schema, Table string
	// Before is how many column definitions precede the clause: its
	// columns go there.
	Before int
	// Including holds the options in force: "comments", "constraints",
	// "defaults", "generated", "identity", "indexes", "statistics",
	// "storage", "compression" (INCLUDING ALL sets each, EXCLUDING
	// removes one, in the order written).
	Including map[string]bool
	// Position is the clause's offset in the statement, for errors.
	Position int
	// Inherit marks the clause the binder stands for an INHERITS parent:
	// its columns merge with those of other parents and the table's own
	// of the same name, as PostgreSQL's MergeAttributes does.
	Inherit bool
	// Partition marks the clause the binder stands for the parent of
	// CREATE TABLE ... PARTITION OF: the partition's own options of a
	// column (its DEFAULT, its CHECKs) stand over the parent's.
	Partition bool
}

// likeOptions are CREATE TABLE LIKE's INCLUDING/EXCLUDING options.
var likeOptions = []string{"comments", "compression", "constraints", "defaults", "generated", "identity", "indexes", "statistics", "storage"}

// ColumnExtras are the parts of a column definition lifted out of TiDB's
// text.
type ColumnExtras struct {
	// TypeName names the column's user-defined type ("mood", "mood[]"
	// for an array of it), which the binder looks up; the column's TiDB
	// type is then text.
	TypeName string
	// TypePosition is where the column's type is written in the client's
	// query string (pgerr.Error.Position), for an error about its name.
	TypePosition int
	// Default is the DEFAULT expression as written, at byte
	// DefaultOffset of the query string (0 when not taken from the
	// client's text), where Statement.Within points its errors.
	Default       string
	DefaultOffset int
	// Serial is the integer type of a SERIAL column ("integer" ...).
	Serial string
	// Identity is GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY.
	Identity *Identity
	// Generated is the expression of GENERATED ALWAYS AS (expr) STORED.
	Generated string
	// Checks are the column's CHECK constraints.
	Checks []NamedCheck
}

// Identity describes an identity column.
type Identity struct {
	Always bool
	// Options are the sequence options in parentheses, as written.
	Options string
}

// NamedCheck is a CHECK constraint: its name (empty when not given) and
// its expression as written, at byte Offset of the query string (0 when
// it was not taken from the client's text), where Statement.Within points
// the positions of the expression parsed apart.
type NamedCheck struct {
	Name   string
	SQL    string
	Offset int
}

// OnConflict describes INSERT ... ON CONFLICT [(Columns)] DO NOTHING | DO
// UPDATE SET .... For DO UPDATE the SET list is the InsertStmt's
// OnDuplicate assignments; EXCLUDED.col appears there as a column name
// whose table is "excluded".
// IndexExpr is an expression key of CREATE INDEX (or an ON CONFLICT
// target), as written, at byte Offset of the statement's text.
type IndexExpr struct {
	SQL    string
	Offset int
}

type OnConflict struct {
	Columns []string // the conflict target, nil when not given
	// Exprs are the target's index expressions, and Where its inference
	// clause (ON CONFLICT (...) WHERE predicate), nil when not given.
	Exprs []IndexExpr
	Where *IndexExpr
	// Constraint is ON CONFLICT ON CONSTRAINT name ("" when not given).
	Constraint string
	DoNothing  bool // DO NOTHING; otherwise DO UPDATE
}

// ExplainOptions are the options of EXPLAIN, resolved as PostgreSQL 15
// resolves them: TIMING and SUMMARY default to ANALYZE, COSTS to on.
type ExplainOptions struct {
	Analyze bool
	Verbose bool
	Format  string // "text", "json", "yaml" or "xml"
	Costs   bool
	Buffers bool
	Timing  bool
	Summary bool
	// Settings lists the planner settings changed from their defaults;
	// WAL (with ANALYZE) the items a write hands to the store and their
	// bytes, zproxy's counterpart of PostgreSQL's WAL records.
	Settings bool
	WAL      bool
	// Err is the first option PostgreSQL would reject (an unknown option
	// or value, WAL or TIMING without ANALYZE): PostgreSQL checks them
	// when it analyzes the statement, after the explained statement's own
	// errors, so the binder raises it once that statement is bound.
	Err error
}

// Position converts a byte offset into SQL (for instance an expression's
// OriginTextPosition) into the 1-based character position in the whole
// query string that pgerr.Error.Position expects.
func (s *Statement) Position(sqlOffset int) int {
	return charPos(s.query, s.origOffset(sqlOffset, s.Offset))
}

// origOffset maps an offset a node of the statement's AST records to the
// query's, through the part's map for a node of a part parsed apart.
func (s *Statement) origOffset(sqlOffset, fallback int) int {
	if k := sqlOffset / partBase; k > 0 {
		if k > len(s.parts) {
			return fallback
		}
		return origOffset(s.parts[k-1], sqlOffset%partBase, fallback)
	}
	return origOffset(s.segs, sqlOffset, fallback)
}

// Query is the whole query string the statement came in, as the client
// sent it (what PostgreSQL's pg_prepared_statements shows of a PREPARE).
func (s *Statement) Query() string { return s.query }

// OperatorPosition is the position of the infix operator written just
// before the operand that starts at sqlOffset (of SQL), where PostgreSQL
// points errors about the operator ("operator does not exist"); 0 when
// no operator stands there in the client's text (an operator zproxy
// respelled, say).
func (s *Statement) OperatorPosition(sqlOffset int) int {
	end := s.origOffset(sqlOffset, -1)
	if end < s.Offset || end > len(s.query) {
		return 0
	}
	if end+2 <= len(s.query) && strings.EqualFold(s.query[end:end+2], "is") && (end+2 == len(s.query) || !isIdentChar(s.query[end+2])) {
		// IS [NOT] DISTINCT FROM, which the rewriting made <=>: its right
		// operand starts in place of IS, where PostgreSQL points.
		return charPos(s.query, end)
	}
	return s.operatorBefore(end)
}

// QuantifiedOperatorPosition is OperatorPosition for the operator of x op
// ANY|SOME|ALL (subquery), whose subquery starts at sqlOffset.
func (s *Statement) QuantifiedOperatorPosition(sqlOffset int) int {
	end := s.origOffset(sqlOffset, -1)
	if end < s.Offset || end > len(s.query) {
		return 0
	}
	switch j, w := s.wordBefore(end, " \t\n\r\f("); w {
	case "any", "some", "all":
		return s.operatorBefore(j)
	}
	return 0
}

// wordBefore is the identifier that ends at offset end of the query once
// the characters of skip before end are passed: its start and its text
// in lower case ("" when none).
func (s *Statement) wordBefore(end int, skip string) (int, string) {
	i := end
	for i > s.Offset && strings.ContainsRune(skip, rune(s.query[i-1])) {
		i--
	}
	j := i
	for j > s.Offset && isIdentChar(s.query[j-1]) {
		j--
	}
	return j, strings.ToLower(s.query[j:i])
}

// InPosition is where PostgreSQL reports an error of the operator of
// x [NOT] IN (list), whose first item starts at sqlOffset: the IN, or the
// NOT of NOT IN (gram.y's location of the expression). 0 when the text
// before the list is not that.
func (s *Statement) InPosition(sqlOffset int) int {
	start := s.origOffset(sqlOffset, -1)
	if start < s.Offset || start > len(s.query) {
		return 0
	}
	in, w := s.wordBefore(start, " \t\n\r\f(")
	if w != "in" {
		return 0
	}
	if not, w := s.wordBefore(in, " \t\n\r\f"); w == "not" {
		return charPos(s.query, not)
	}
	return charPos(s.query, in)
}

// operatorBefore is the position of the operator that ends, blanks
// aside, at offset end of the query.
func (s *Statement) operatorBefore(end int) int {
	i := end
	for i > s.Offset && strings.ContainsRune(" \t\n\r\f", rune(s.query[i-1])) {
		i--
	}
	if k := s.operatorKeyword(i); k >= 0 {
		return charPos(s.query, k) // OPERATOR(schema.op): at OPERATOR
	}
	j := i
	for j > s.Offset && strings.ContainsRune(operatorChars, rune(s.query[j-1])) {
		j--
	}
	if j == i {
		// A key word operator: [NOT] LIKE, ILIKE, SIMILAR TO.
		for j > s.Offset && isIdentChar(s.query[j-1]) {
			j--
		}
		word := strings.ToLower(s.query[j:i])
		switch word {
		case "like", "ilike":
		case "to":
			k := j
			for k > s.Offset && strings.ContainsRune(" \t\n\r\f", rune(s.query[k-1])) {
				k--
			}
			if !strings.HasSuffix(strings.ToLower(s.query[s.Offset:k]), "similar") {
				return 0
			}
			j = k - len("similar")
		default:
			return 0
		}
		k := j
		for k > s.Offset && strings.ContainsRune(" \t\n\r\f", rune(s.query[k-1])) {
			k--
		}
		if k-3 >= s.Offset && strings.EqualFold(s.query[k-3:k], "not") && (k-3 == s.Offset || !isIdentChar(s.query[k-4])) {
			j = k - 3
		}
	}
	return charPos(s.query, j)
}

// operatorKeyword is the offset of OPERATOR when the query's text
// before offset end is OPERATOR(schema.op), else -1.
func (s *Statement) operatorKeyword(end int) int {
	if end <= s.Offset || s.query[end-1] != ')' {
		return -1
	}
	open := strings.LastIndexByte(s.query[s.Offset:end-1], '(')
	if open < 0 {
		return -1
	}
	k := s.Offset + open
	for k > s.Offset && strings.ContainsRune(" \t\n\r\f", rune(s.query[k-1])) {
		k--
	}
	const word = "operator"
	if k-len(word) < s.Offset || !strings.EqualFold(s.query[k-len(word):k], word) ||
		k-len(word) > s.Offset && isIdentChar(s.query[k-len(word)-1]) {
		return -1
	}
	return k - len(word)
}

// isIdentChar reports whether c may stand in an unquoted identifier or
// key word.
func isIdentChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// operatorChars are the characters PostgreSQL's operators are made of.
const operatorChars = "+-*/<>=~!@#%^&|`?"

// NamePosition finds where an identifier (as the client wrote it, matched
// the way identifiers fold) first appears as a word in the statement, for
// errors about a name whose place the AST does not record; 0 if not found.
func (s *Statement) NamePosition(name string) int {
	toks, err := scan(s.Text)
	if err != nil {
		return 0
	}
	first := 0
	for i, t := range toks {
		if (t.kind != tkIdent && t.kind != tkQIdent) || t.val != name {
			continue
		}
		if i+1 < len(toks) && toks[i+1].is(".") {
			if first == 0 {
				first = charPos(s.query, s.Offset+t.start)
			}
			continue // a qualifier, not where the relation is named
		}
		if i > 0 {
			switch p := toks[i-1]; {
			case p.is("from"), p.is("join"), p.is(","), p.is("only"), p.is("update"), p.is("into"), p.is("table"), p.is("lateral"), p.is("."):
				return charPos(s.query, s.Offset+t.start)
			}
		}
		if first == 0 {
			first = charPos(s.query, s.Offset+t.start)
		}
	}
	return first
}

// InsertColumnPosition is where the k-th (0-based) column of an INSERT's
// column list is named in the client's text, or 0: PostgreSQL points at
// a column named twice.
func (s *Statement) InsertColumnPosition(k int) int {
	toks, err := scan(s.Text)
	if err != nil {
		return 0
	}
	i := 0
	for i+1 < len(toks) && !(toks[i].is("insert") && toks[i+1].is("into")) {
		if toks[i].is("(") {
			// Not inside a WITH query: the statement's own INSERT.
			if m := matchingIn(toks, i); m > i {
				i = m
			}
		}
		i++
	}
	// INSERT INTO name [AS alias] (
	for i += 2; i < len(toks) && !toks[i].is("("); i++ {
		if toks[i].is("values") || toks[i].is("select") || toks[i].is("default") {
			return 0
		}
	}
	depth, item := 0, 0
	for i++; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") && depth == 0:
			return 0
		case t.is(")") || t.is("]"):
			depth--
		case t.is(",") && depth == 0:
			item++
		case depth == 0 && item == k && (t.kind == tkIdent || t.kind == tkQIdent):
			return charPos(s.query, s.Offset+t.start)
		}
	}
	return 0
}

var tidbPool = sync.Pool{New: func() any {
	p := tidb.New()
	configureTiDB(p)
	return p
}}

// configureTiDB sets the TiDB parser's modes for the SQL the front end
// emits.
func configureTiDB(p *tidb.Parser) {
	p.SetSQLMode(mysql.ModeANSIQuotes | mysql.ModePipesAsConcat | mysql.ModeNoBackslashEscapes | mysql.ModeIgnoreSpace)
	// Window functions make their names (rank, row_number, ...) reserved
	// words in TiDB; a column of that name is backquoted on a retry.
	p.EnableWindowFunc(true)
}

// releaseTiDB returns a parser to the pool with its symbol stack cleared.
// The stack keeps pointers to the last statement's expressions past its
// top, and TiDB's parser sets the text position of whatever expression
// its current symbol holds after each rule: a parser put back as it was
// would write into a statement already handed to another session (a data
// race) and keep that statement from being collected.
func releaseTiDB(p *tidb.Parser) {
	p.Reset() // (which also resets the modes)
	configureTiDB(p)
	tidbPool.Put(p)
}

// Parse splits sql into statements and parses each. An empty query (only
// whitespace, comments or semicolons) yields no statements. Errors are
// *pgerr.Error; syntax errors have SQLSTATE 42601 and a Position in sql.
// Parse is safe for concurrent use.
func Parse(sql string) ([]Statement, error) {
	toks, err := scan(sql)
	if err != nil {
		return nil, err
	}
	var out []Statement
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && toks[i].is("begin") && i+1 < len(toks) && toks[i+1].is("atomic") && createsRoutine(toks[start:i]) {
			// A BEGIN ATOMIC body's statements end in semicolons of
			// their own: the statement goes on to its END.
			if end := atomicEnd(toks, i+2); end >= 0 {
				i = end
			}
			continue
		}
		if i < len(toks) && !toks[i].is(";") {
			continue
		}
		if i > start {
			st, err := parseOne(sql, toks[start:i])
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
		start = i + 1
	}
	return out, nil
}

// ParsedApart reports whether the statement was read by the front end
// into one of its own descriptions (no AST: Role, Sequence, Routine ...).
func (st *Statement) ParsedApart() bool {
	return st.Role != nil || st.Sequence != nil || st.Alter != nil || st.Truncate != nil || st.Reindex != nil || st.Lock != nil ||
		st.Owner != nil || st.Comment != nil || st.Analyze != nil || st.Extension != nil || st.Schema != nil || st.Database != nil || st.Type != nil || st.Utility != nil ||
		st.Routine != nil || st.Trigger != nil || st.Refresh != nil
}

// createsRoutine reports whether toks begin CREATE [OR REPLACE] FUNCTION
// or PROCEDURE.
func createsRoutine(toks []token) bool {
	k := 1
	if len(toks) > 2 && toks[1].is("or") && toks[2].is("replace") {
		k = 3
	}
	return len(toks) > k && toks[0].is("create") && (toks[k].is("function") || toks[k].is("procedure"))
}

func parseOne(sql string, toks []token) (Statement, error) {
	first, last := toks[0], toks[len(toks)-1]
	st := Statement{Text: sql[first.start:last.end], Offset: first.start, query: sql}
	if err := checkDepth(toks); err != nil {
		return st, err
	}
	r := &rewriter{sql: sql, toks: toks, ed: make([]edit, len(toks)), primStart: map[int]int{}, st: &st}
	if err := refuseUnsupported(toks); err != nil {
		return st, err
	}

	stmt, err := r.special()
	if err != nil || stmt != nil || st.ParsedApart() {
		st.AST = stmt
		return st, err
	}
	head := 0
	if first.is("explain") {
		if head, st.Explain, err = r.explainPrefix(); err != nil {
			return st, err
		}
		if r.peek(head, "execute") {
			// EXPLAIN EXECUTE name(args): the utility statement, explained
			// with the prepared statement's plan.
			sub := &rewriter{sql: sql, toks: toks[head:], ed: make([]edit, len(toks)-head), primStart: map[int]int{}, st: &st}
			st.Utility, err = sub.executeStmt()
			return st, err
		}
	}
	if r.mergeHead(head) {
		return r.mergeStatement(&st, head)
	}
	r.catalogCalls(head)
	if head, err = r.createTableAs(head); err != nil {
		return st, err
	}
	if err := r.selectInto(head); err != nil {
		return st, err
	}
	toks = r.toks // less a CREATE TABLE's WITH DATA or a SELECT's INTO
	if err := r.fetchClauses(head); err != nil {
		return st, err
	}
	if err := r.currentOf(head); err != nil {
		return st, err
	}
	if err := r.searchCycle(head); err != nil {
		return st, err
	}
	// An operator after another of its non-associative level is a syntax
	// error (nonassoc.go), reported unless the rewrite or TiDB finds one
	// before it in the text, as PostgreSQL's parser would.
	nonAssoc := r.nonAssoc(head)
	if err := r.rewrite(head); err != nil {
		return st, firstSyntaxError(nonAssoc, err)
	}
	// A word Postgres allows as a column name may be reserved in TiDB
	// (key, range, rank...): when TiDB fails at such a word, it is
	// backquoted and the statement tried again.
	// The TiDB parser reuses its result slice, so the statement is taken
	// out of it before the parser goes back to the pool.
	p := tidbPool.Get().(*tidb.Parser)
	defer releaseTiDB(p)
	for attempt := 0; ; attempt++ {
		st.SQL = r.emit(head)
		st.segs = r.seg
		stmts, _, err := p.ParseSQL(st.SQL)
		if err == nil {
			if len(stmts) != 1 {
				return st, r.syntaxErrorAt(len(toks))
			}
			st.AST = stmts[0]
			break
		}
		i := r.tidbErrorToken(&st, err)
		if i > head && i <= len(toks) && (i == len(toks) || !toks[i].is("(")) && toks[i-1].kind == tkIdent && !r.ed[i-1].hasRep && (windowWords[toks[i-1].val] || tidbListKeywords[toks[i-1].val]) {
			// "SELECT rank, ...", "SELECT last_value FROM" fail after the
			// word, which TiDB takes for a window function (whose name a
			// "(" would follow).
			i--
		} else if i > head && i < len(toks) && toks[i].is("(") && toks[i-1].kind == tkIdent && !r.ed[i-1].hasRep && !pgReserved[toks[i-1].val] {
			// A call of a function whose name TiDB reserves (a
			// user-defined low(x), slow(n)): the name is quoted.
			i--
		}
		if i < head || i >= len(toks) || attempt == 32 || toks[i].kind != tkIdent || pgReserved[toks[i].val] || r.ed[i].hasRep {
			return st, firstSyntaxError(nonAssoc, r.tidbError(i, err))
		}
		r.replace(i, "`"+toks[i].val+"`")
		r.seg, r.params = r.seg[:0], r.params[:0]
	}
	if nonAssoc != nil {
		return st, nonAssoc
	}
	r.numberParams(&st)
	r.numberSubParams(&st)
	r.placeOrdinals(&st, head)
	if st.Explain != nil {
		format := "row"
		if st.Explain.Format != "text" {
			format = st.Explain.Format
		}
		st.AST = &ast.ExplainStmt{Stmt: st.AST, Analyze: st.Explain.Analyze, Format: format}
	}
	return st, nil
}

// firstSyntaxError is err, unless nonAssoc (a syntax error, or nil) comes
// first: err is another kind of error, or a syntax error later in the
// text, which PostgreSQL's parser would not reach.
func firstSyntaxError(nonAssoc *pgerr.Error, err error) error {
	if nonAssoc == nil {
		return err
	}
	var e *pgerr.Error
	if errors.As(err, &e) && e.Code == pgerr.SyntaxError && e.Position > 0 && e.Position < nonAssoc.Position {
		return err
	}
	return nonAssoc
}

// numberParams sets each marker's Order to its rank in the text and fills
// ParamOrder from the $n recorded where each "?" was emitted.
func (r *rewriter) numberParams(st *Statement) {
	if len(r.params) == 0 {
		return
	}
	var markers []*test_driver.ParamMarkerExpr
	st.AST.Accept(markerCollector{&markers})
	sort.Slice(markers, func(i, j int) bool { return markers[i].Offset < markers[j].Offset })
	byOffset := make(map[int]int, len(r.params))
	for _, p := range r.params {
		byOffset[p.out] = p.n
		st.NumParams = max(st.NumParams, p.n)
	}
	st.ParamOrder = make([]int, len(markers))
	for i, m := range markers {
		m.Order = i
		st.ParamOrder[i] = byOffset[m.Offset]
	}
}

type markerCollector struct {
	out *[]*test_driver.ParamMarkerExpr
}

func (c markerCollector) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *test_driver.ParamMarkerExpr:
		*c.out = append(*c.out, x)
	case *test_driver.ValueExpr:
		// TiDB's grammar keeps some expressions (TABLESAMPLE's arguments)
		// inside a value, where the walk does not go: $n there are
		// parameters too.
		if inner, ok := x.GetValue().(ast.Node); ok {
			inner.Accept(c)
		}
	}
	return n, false
}

func (c markerCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// tidbErrorToken finds the token a TiDB parse error points at: len(toks)
// for the end of the statement, -1 when the error has no position. TiDB's
// syntax errors carry no structured position: the message is `line L
// column C near "REST"...` where REST is the text from the offending token
// to the end (cut to 2048 bytes, then followed by "(total length N)"). The
// offset is recovered as len(SQL) - len(REST), checked against the SQL.
func (r *rewriter) tidbErrorToken(st *Statement, err error) int {
	msg := err.Error()
	off := -1
	if k := strings.Index(msg, ` near "`); k >= 0 {
		rest := msg[k+len(` near "`):]
		if j := strings.LastIndex(rest, "(total length "); j >= 0 {
			if n, convErr := strconv.Atoi(strings.TrimRight(rest[j+len("(total length "):], ") ")); convErr == nil && n <= len(st.SQL) {
				off = len(st.SQL) - n
			}
		} else {
			// REST is followed by `"` and the error's own suffix (usually
			// just " "): the longest prefix of rest that ends before a `"`
			// and is a suffix of SQL.
			for p := len(rest) - 1; p >= 0; p-- {
				if rest[p] == '"' && strings.HasSuffix(st.SQL, rest[:p]) {
					off = len(st.SQL) - p
					break
				}
			}
		}
	}
	if off < 0 {
		return -1
	}
	for off < len(st.SQL) && isSpace(st.SQL[off]) {
		off++
	}
	if off >= len(st.SQL) {
		return len(r.toks)
	}
	orig := origOffset(st.segs, off, st.Offset)
	for i, t := range r.toks {
		if orig < t.end {
			return i
		}
	}
	return len(r.toks)
}

// pgOnly are words at which TiDB fails on valid Postgres that zproxy does
// not support; the error says so instead of reporting a syntax error.
var pgOnly = map[string]string{
	"returning": "RETURNING is not supported",
	"nulls":     "NULLS FIRST/LAST is not supported",
	"lateral":   "LATERAL is not supported",
}

// tidbError turns a TiDB parse error at token i into Postgres' 42601 (or
// 0A000 for known Postgres features zproxy lacks).
func (r *rewriter) tidbError(i int, err error) error {
	if i < 0 {
		return pgerr.New(pgerr.SyntaxError, "syntax error: %s", err.Error()).WithPosition(r.pos(0))
	}
	if i < len(r.toks) && r.toks[i].kind == tkIdent {
		if msg, ok := pgOnly[r.toks[i].val]; ok {
			return pgerr.New(pgerr.FeatureNotSupported, "%s", msg).WithPosition(r.pos(i))
		}
		if r.toks[i].val == "distinct" && i > 0 && (r.toks[i-1].is("is") || r.toks[i-1].is("not")) {
			return pgerr.New(pgerr.FeatureNotSupported, "IS [NOT] DISTINCT FROM is not supported").WithPosition(r.pos(i))
		}
	}
	return r.syntaxErrorAt(i)
}

// windowWords are the names TiDB reserves when window functions are on.
var windowWords = map[string]bool{
	"rank": true, "row_number": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true,
	"lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true, "groups": true,
	"window": true, "over": true, "range": true, "rows": true,
}

// pgReserved are Postgres' reserved key words: never column names, so never
// backquoted on a retry.
var pgReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric both case cast
		check collate column constraint create current_catalog current_date current_role current_time
		current_timestamp current_user default deferrable desc distinct do else end except false fetch
		for foreign from grant group having in initially intersect into lateral leading limit localtime
		localtimestamp not null offset on only or order placing primary references returning select
		session_user some symmetric table then to trailing true union unique user using variadic when
		where window with`) {
		pgReserved[w] = true
	}
}
