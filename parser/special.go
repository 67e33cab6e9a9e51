package parser

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// special builds the AST of the statements whose Postgres spelling TiDB
// cannot parse (SET/RESET/SHOW of settings, transaction control, DROP INDEX
// without ON). It returns nil when the statement is not one of them.
func (r *rewriter) special() (ast.StmtNode, error) {
	t := r.toks[0]
	if t.kind != tkIdent {
		return nil, nil
	}
	if r.peek(0, "grant") || r.peek(0, "revoke") {
		if rs, err := r.routineGrant(); err != nil || rs != nil {
			r.st.Routine = rs // no AST: see RoutineStatement
			return nil, err
		}
	}
	if ts, err := r.triggerStmt(); err != nil || ts != nil {
		r.st.Trigger = ts // no AST: see TriggerStatement
		return nil, err
	}
	if ds, err := r.databaseStmt(); err != nil || ds != nil {
		r.st.Database = ds // no AST: see DatabaseStatement
		return nil, err
	}
	if us, err := r.tablespaceStmt(); err != nil || us != nil {
		r.st.Utility = us // no AST: DROP TABLESPACE IF EXISTS
		return nil, err
	}
	r.matviewAsTable()
	r.viewRenameAsTable()
	if rs, err := r.refreshStmt(); err != nil || rs != nil {
		r.st.Refresh = rs // no AST: see RefreshStatement
		return nil, err
	}
	if os, err := r.ownerStmt(); err != nil || os != nil {
		if os != nil && r.st.Matview {
			os.Kind = "materialized view"
		}
		r.st.Owner = os // no AST: see OwnerStatement
		return nil, err
	}
	if rs, err := r.roleStmt(); err != nil || rs != nil {
		r.st.Role = rs // no AST: see RoleStatement
		return nil, err
	}
	if ss, err := r.sequenceStmt(); err != nil || ss != nil {
		r.st.Sequence = ss // no AST: see SequenceStatement
		return nil, err
	}
	if as, err := r.alterTableStmt(); err != nil || as != nil {
		r.st.Alter = as // no AST: see AlterTableStatement
		return nil, err
	}
	if ls, err := r.lockStmt(); err != nil || ls != nil {
		r.st.Lock = ls // no AST: see LockStatement
		return nil, err
	}
	if ts, err := r.truncateStmt(); err != nil || ts != nil {
		r.st.Truncate = ts // no AST: see TruncateStatement
		return nil, err
	}
	if rs, err := r.reindexStmt(); err != nil || rs != nil {
		r.st.Reindex = rs // no AST: see ReindexStatement
		return nil, err
	}
	if rs, ts, err := r.commentObjectStmt(); err != nil || rs != nil || ts != nil {
		r.st.Routine, r.st.Type = rs, ts // no AST: the routine's or type's statement
		return nil, err
	}
	if cs, err := r.commentStmt(); err != nil || cs != nil {
		r.st.Comment = cs // no AST: see CommentStatement
		return nil, err
	}
	if as, err := r.analyzeStmt(); err != nil || as != nil {
		r.st.Analyze = as // no AST: see AnalyzeStatement
		return nil, err
	}
	if ts, err := r.typeStmt(); err != nil || ts != nil {
		r.st.Type = ts // no AST: see TypeStatement
		return nil, err
	}
	if rs, err := r.routineStmt(); err != nil || rs != nil {
		r.st.Routine = rs // no AST: see RoutineStatement
		if rs != nil && rs.Call != nil {
			// A CALL's parameters are its arguments': a Parse of it
			// describes them, as PostgreSQL's does.
			r.st.NumParams, r.st.ParamOrder = rs.Call.NumParams, rs.Call.ParamOrder
		}
		return nil, err
	}
	if ss, err := r.schemaStmt(); err != nil || ss != nil {
		r.st.Schema = ss // no AST: see SchemaStatement
		return nil, err
	}
	if es, err := r.extensionStmt(); err != nil || es != nil {
		r.st.Extension = es // no AST: see ExtensionStatement
		return nil, err
	}
	if us, err := r.utilityStmt(); err != nil || us != nil {
		r.st.Utility = us // no AST: see UtilityStatement
		return nil, err
	}
	n := len(r.toks)
	switch t.val {
	case "begin", "start":
		k := 1
		if t.val == "start" {
			if !r.peek(1, "transaction") {
				return nil, nil
			}
			k = 2
			r.st.StartTransaction = true
		} else if r.peek(1, "work") || r.peek(1, "transaction") {
			k = 2
		}
		// The modes parse as SET TRANSACTION's do; the statement keeps
		// READ ONLY and, in Mode, the isolation level asked for.
		stmt := &ast.BeginStmt{}
		if k < n {
			modes, err := r.transactionModes(k, "")
			if err != nil {
				return nil, err
			}
			for _, m := range modes.(*ast.SetStmt).Variables {
				v := m.Value.(ast.ValueExpr).GetString()
				switch m.Name {
				case "read_only":
					stmt.ReadOnly = v == "on"
				case "isolation":
					stmt.Mode = v
				}
			}
		}
		return stmt, nil
	case "commit", "end", "rollback", "abort":
		if t.val == "rollback" && r.peek(1, "prepared") || t.val == "commit" && r.peek(1, "prepared") {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "prepared transactions (two-phase commit) are not supported")
		}
		if t.val == "rollback" || t.val == "abort" {
			k := 1
			if r.peek(k, "work") || r.peek(k, "transaction") {
				k++
			}
			if r.peek(k, "to") {
				k++
				if r.peek(k, "savepoint") {
					k++
				}
				// A quoted name keeps its case (pgJDBC's setSavepoint
				// quotes the names it sends); an unquoted one is folded.
				name, err := r.name(k)
				if err != nil || k != n-1 {
					return nil, r.syntaxErrorAt(k)
				}
				return &ast.RollbackStmt{SavepointName: name}, nil
			}
		}
		k := 1
		if r.peek(k, "work") || r.peek(k, "transaction") {
			k++
		}
		completion := ast.CompletionTypeDefault
		switch {
		case k+2 == n && r.peek(k, "and") && r.peek(k+1, "chain"):
			completion = ast.CompletionTypeChain
		case k+3 == n && r.peek(k, "and") && r.peek(k+1, "no") && r.peek(k+2, "chain"):
		case k < n:
			return nil, r.syntaxErrorAt(k)
		}
		if t.val == "commit" || t.val == "end" {
			return &ast.CommitStmt{CompletionType: completion}, nil
		}
		return &ast.RollbackStmt{CompletionType: completion}, nil
	case "savepoint", "release":
		k := 1
		if t.val == "release" && r.peek(k, "savepoint") {
			k++
		}
		name, err := r.name(k)
		if err != nil || k != n-1 {
			return nil, r.syntaxErrorAt(k)
		}
		if t.val == "savepoint" {
			return &ast.SavepointStmt{Name: name}, nil
		}
		return &ast.ReleaseSavepointStmt{Name: name}, nil
	case "set":
		return r.setStmt()
	case "reset":
		if n == 2 && r.peek(1, "all") {
			return resetStmt("all"), nil
		}
		if n == 3 && r.peek(1, "session") && r.peek(2, "authorization") {
			return resetStmt("session_authorization"), nil
		}
		name, k, err := r.settingName(1)
		if err != nil {
			return nil, err
		}
		if k < n {
			return nil, r.syntaxErrorAt(k)
		}
		return resetStmt(name), nil
	case "show":
		return r.showStmt()
	case "drop":
		if r.peek(1, "index") {
			return r.dropIndex()
		}
	}
	return nil, nil
}

// roleSetting reads the one value of SET ROLE (name, 'name' or NONE) or
// SET SESSION AUTHORIZATION (name, 'name' or DEFAULT) at k: the parameter
// name gets it as SET name = value would.
func (r *rewriter) roleSetting(name string, k int) (ast.StmtNode, error) {
	if k != len(r.toks)-1 {
		return nil, r.syntaxErrorAt(min(k+1, len(r.toks)))
	}
	t := r.toks[k]
	va := &ast.VariableAssignment{Name: name, IsSystem: true}
	switch {
	case t.kind == tkIdent && name == "session_authorization" && t.val == "default":
		r.st.SetToDefault = true
		va.Value = &ast.DefaultExpr{}
	case t.kind == tkIdent || t.kind == tkQIdent || t.kind == tkString:
		va.Value = ast.NewValueExpr(t.val, "", "")
	default:
		return nil, r.syntaxErrorAt(k)
	}
	return &ast.SetStmt{Variables: []*ast.VariableAssignment{va}}, nil
}

func resetStmt(name string) ast.StmtNode {
	return &ast.SetStmt{Variables: []*ast.VariableAssignment{{Name: name, Value: &ast.DefaultExpr{}, IsSystem: true}}}
}

// settingName reads a (dotted) configuration parameter name at i.
func (r *rewriter) settingName(i int) (string, int, error) {
	if i >= len(r.toks) || r.toks[i].kind != tkIdent && r.toks[i].kind != tkQIdent {
		return "", i, r.syntaxErrorAt(i)
	}
	name := r.toks[i].val
	i++
	for r.peek(i, ".") && i+1 < len(r.toks) && (r.toks[i+1].kind == tkIdent || r.toks[i+1].kind == tkQIdent) {
		name += "." + r.toks[i+1].val
		i += 2
	}
	return strings.ToLower(name), i, nil
}

// setStmt handles SET [SESSION|LOCAL] name {=|TO} value[, ...] | DEFAULT,
// SET TIME ZONE value and SET NAMES value. SET TRANSACTION and SET SESSION
// CHARACTERISTICS go to TiDB. Values become string constants: a list is
// joined with ", " the way Postgres flattens it.
func (r *rewriter) setStmt() (ast.StmtNode, error) {
	k := 1
	if (r.peek(k, "session") || r.peek(k, "local")) && !(r.peek(k, "session") && r.peek(k+1, "authorization")) {
		r.st.SetLocal = r.peek(k, "local")
		k++
	}
	if r.peek(k, "role") && !r.peek(k+1, "=") && !r.peek(k+1, "to") {
		// SET ROLE name | NONE: the role parameter, as PostgreSQL's
		// grammar makes it.
		return r.roleSetting("role", k+1)
	}
	if r.peek(k, "session") && r.peek(k+1, "authorization") {
		// SET SESSION AUTHORIZATION name | DEFAULT.
		return r.roleSetting("session_authorization", k+2)
	}
	if r.peek(k, "characteristics") && r.peek(k+1, "as") && r.peek(k+2, "transaction") {
		return r.transactionModes(k+3, "default_transaction_")
	}
	if r.peek(k, "transaction") && r.peek(k+1, "snapshot") {
		// SET TRANSACTION SNAPSHOT 'name': the transaction_snapshot
		// pseudo-parameter, which the session applies by beginning the
		// block's transaction on that snapshot.
		if k+2 >= len(r.toks) || r.toks[k+2].kind != tkString {
			return nil, r.syntaxErrorAt(k + 2)
		}
		if k+3 < len(r.toks) {
			return nil, r.syntaxErrorAt(k + 3)
		}
		return &ast.SetStmt{Variables: []*ast.VariableAssignment{{Name: "transaction_snapshot", IsSystem: true, Value: ast.NewValueExpr(r.toks[k+2].val, "", "")}}}, nil
	}
	if r.peek(k, "transaction") {
		return r.transactionModes(k+1, "transaction_")
	}
	if r.peek(k, "constraints") && k == 1 {
		return r.setConstraints(k + 1)
	}
	var name string
	special := true
	switch {
	case r.peek(k, "time") && r.peek(k+1, "zone"):
		name, k = "timezone", k+2
	case r.peek(k, "names"):
		name, k = "client_encoding", k+1
	default:
		special = false
		var err error
		if name, k, err = r.settingName(k); err != nil {
			return nil, err
		}
		if !r.peek(k, "=") && !r.peek(k, "to") {
			return nil, r.syntaxErrorAt(k)
		}
		k++
	}
	va := &ast.VariableAssignment{Name: name, IsSystem: true}
	if name == "timezone" && r.peek(k, "interval") && k+1 < len(r.toks) && r.toks[k+1].kind == tkString {
		// SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE reaches the
		// session spelled as PostgreSQL flattens it for check_timezone.
		v := "interval '" + strings.ReplaceAll(r.toks[k+1].val, "'", "''") + "'"
		for _, t := range r.toks[k+2:] {
			if t.kind != tkIdent && t.kind != tkPunct && t.kind != tkNumber {
				return nil, r.syntaxErrorAt(k + 2)
			}
			v += " " + t.val
		}
		va.Value = ast.NewValueExpr(v, "", "")
		return &ast.SetStmt{Variables: []*ast.VariableAssignment{va}}, nil
	}
	if k < len(r.toks) && (r.peek(k, "default") || name == "timezone" && r.peek(k, "local")) && k+1 == len(r.toks) {
		r.st.SetToDefault = true
		va.Value = &ast.DefaultExpr{}
		return &ast.SetStmt{Variables: []*ast.VariableAssignment{va}}, nil
	}
	var vals []string
	for {
		sign := ""
		if r.peek(k, "-") || r.peek(k, "+") {
			sign = r.toks[k].val
			k++
		}
		if k >= len(r.toks) {
			return nil, r.syntaxErrorAt(k)
		}
		v, ok := optionValue(r.toks[k])
		if !ok || sign != "" && r.toks[k].kind != tkNumber {
			return nil, r.syntaxErrorAt(k)
		}
		if sign == "-" {
			v = sign + v
		}
		vals = append(vals, listQuoted(name, r.toks[k], v))
		k++
		if k == len(r.toks) {
			break
		}
		if special {
			// SET TIME ZONE and SET NAMES take one value in the grammar.
			return nil, r.syntaxErrorAt(k)
		}
		if !r.peek(k, ",") {
			return nil, r.syntaxErrorAt(k)
		}
		k++
	}
	if err := checkValueCount(name, vals); err != nil {
		return nil, err
	}
	va.Value = ast.NewValueExpr(strings.Join(vals, ", "), "", "")
	return &ast.SetStmt{Variables: []*ast.VariableAssignment{va}}, nil
}

// tidbShowWords are single-word SHOW forms TiDB owns (SHOW TABLES ...); any
// other "SHOW name" is a Postgres configuration parameter.
var tidbShowWords = map[string]bool{
	"tables": true, "databases": true, "schemas": true, "warnings": true, "errors": true,
	"variables": true, "status": true, "processlist": true, "indexes": true, "index": true,
	"keys": true, "columns": true, "fields": true, "create": true, "full": true, "global": true,
	"session": true, "grants": true, "privileges": true, "engines": true, "collation": true,
	"charset": true, "character": true, "table": true, "open": true, "plugins": true,
	"triggers": true, "events": true, "master": true, "stats_meta": true, "extended": true,
}

// showStmt builds SHOW name / SHOW ALL / SHOW TIME ZONE as a TiDB
// ShowStmt{Tp: ShowVariables}: no Pattern for ALL, otherwise a LIKE pattern
// whose wildcards are escaped with '\', so it matches exactly the name.
func (r *rewriter) showStmt() (ast.StmtNode, error) {
	var name string
	k := 1
	switch {
	case r.peek(1, "all") && len(r.toks) == 2:
		return &ast.ShowStmt{Tp: ast.ShowVariables}, nil
	case r.peek(1, "time") && r.peek(2, "zone"):
		name, k = "timezone", 3
	case r.peek(1, "transaction") && r.peek(2, "isolation") && r.peek(3, "level"):
		name, k = "transaction_isolation", 4
	case len(r.toks) > 1 && r.toks[1].kind == tkIdent && tidbShowWords[r.toks[1].val]:
		return nil, nil
	default:
		var err error
		if name, k, err = r.settingName(1); err != nil {
			return nil, err
		}
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	escaped := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(name)
	return &ast.ShowStmt{Tp: ast.ShowVariables, Pattern: &ast.PatternLikeOrIlikeExpr{
		Pattern: ast.NewValueExpr(escaped, "", ""), IsLike: true, Escape: '\\',
	}}, nil
}

// dropIndex builds DROP INDEX [CONCURRENTLY] [IF EXISTS] name [CASCADE |
// RESTRICT] as a DropIndexStmt whose Table has an empty Name (not nil, so
// Restore works): Postgres index names are unique per schema, so the
// catalog finds the table. The MySQL spelling
// with ON table goes to TiDB unchanged.
func (r *rewriter) dropIndex() (ast.StmtNode, error) {
	for i := range r.toks {
		if r.toks[i].is("on") {
			return nil, nil
		}
	}
	k := 2
	if r.peek(k, "concurrently") {
		r.st.Concurrently = true
		k++
	}
	stmt := &ast.DropIndexStmt{Table: &ast.TableName{}}
	if r.peek(k, "if") {
		if !r.peek(k+1, "exists") {
			return nil, r.syntaxErrorAt(k + 1)
		}
		stmt.IfExists = true
		k += 2
	}
	// schema.name is the index of that schema (catalog.Snapshot.FindIndex).
	name, k, err := r.relationName(k)
	if err != nil {
		return nil, err
	}
	stmt.IndexName = name
	if r.peek(k, ",") {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP INDEX of several indexes is not supported").WithPosition(r.pos(k))
	}
	if r.peek(k, "cascade") || r.peek(k, "restrict") {
		k++
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	return stmt, nil
}

// explainPrefix consumes EXPLAIN [ANALYZE] [VERBOSE] or EXPLAIN (option
// [value], ...) and returns the index of the explained statement. Options
// are checked as PostgreSQL 15 checks them, in order, with its messages.
func (r *rewriter) explainPrefix() (int, *ExplainOptions, error) {
	opts := &ExplainOptions{Format: "text", Costs: true}
	// An option PostgreSQL rejects is found when it analyzes the
	// statement, after the explained statement's own errors: the first is
	// kept for the binder (ExplainOptions.Err).
	fail := func(err error) {
		if opts.Err == nil {
			opts.Err = err
		}
	}
	k := 1
	timingSet, summarySet := false, false
	if r.peek(1, "(") {
		end := r.matching(1)
		if end < 0 {
			return 0, nil, r.syntaxErrorAt(len(r.toks))
		}
		for k = 2; k < end; {
			if r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
				return 0, nil, r.syntaxErrorAt(k)
			}
			opt, optAt := r.toks[k].val, k
			k++
			var val *token
			if k < end && !r.peek(k, ",") {
				if _, ok := optionValue(r.toks[k]); !ok {
					return 0, nil, r.syntaxErrorAt(k)
				}
				val = &r.toks[k]
				k++
			}
			on, boolErr := explainBool(opt, val)
			switch opt {
			case "analyze", "analyse", "verbose", "costs", "buffers", "timing", "summary", "settings", "wal":
				if boolErr != nil {
					fail(boolErr)
				}
			}
			switch opt {
			case "analyze", "analyse":
				opts.Analyze = on
			case "verbose":
				opts.Verbose = on
			case "costs":
				opts.Costs = on
			case "buffers":
				opts.Buffers = on
			case "timing":
				opts.Timing, timingSet = on, true
			case "summary":
				opts.Summary, summarySet = on, true
			case "settings":
				opts.Settings = on
			case "wal":
				opts.WAL = on
			case "format":
				if val == nil {
					fail(pgerr.New(pgerr.SyntaxError, "format requires a parameter"))
					break
				}
				// PostgreSQL compares the value as written: FORMAT JSON is
				// folded to lower case by the lexer, FORMAT 'JSON' is not.
				switch val.val {
				case "text", "json", "yaml", "xml":
					opts.Format = val.val
				default:
					fail(pgerr.New(pgerr.InvalidParameterValue, "unrecognized value for EXPLAIN option \"format\": \"%s\"", val.val).WithPosition(r.pos(optAt)))
				}
			default:
				// GENERIC_PLAN (PostgreSQL 16), MEMORY and SERIALIZE (17)
				// are unknown to PostgreSQL 15, as to zproxy.
				fail(pgerr.New(pgerr.SyntaxError, "unrecognized EXPLAIN option \"%s\"", opt).WithPosition(r.pos(optAt)))
			}
			if k < end {
				if !r.peek(k, ",") {
					return 0, nil, r.syntaxErrorAt(k)
				}
				k++
			}
		}
		k = end + 1
	} else {
		if r.peek(k, "analyze") || r.peek(k, "analyse") {
			opts.Analyze = true
			k++
		}
		if r.peek(k, "verbose") {
			opts.Verbose = true
			k++
		}
	}
	if opts.WAL && !opts.Analyze {
		fail(pgerr.New(pgerr.InvalidParameterValue, "EXPLAIN option WAL requires ANALYZE"))
	}
	if !timingSet {
		opts.Timing = opts.Analyze
	} else if opts.Timing && !opts.Analyze {
		fail(pgerr.New(pgerr.InvalidParameterValue, "EXPLAIN option TIMING requires ANALYZE"))
	}
	if !summarySet {
		opts.Summary = opts.Analyze
	}
	if k >= len(r.toks) {
		return 0, nil, r.syntaxErrorAt(k)
	}
	r.drop(0, k)
	return k, opts, nil
}

// explainBool reads a Boolean EXPLAIN option's value as PostgreSQL's
// defGetBoolean does: none is true; the integers 0 and 1; the words true,
// false, on and off in any case. A quoted '1' is a string, and refused.
func explainBool(opt string, val *token) (bool, error) {
	if val == nil {
		return true, nil
	}
	if val.kind == tkNumber {
		switch val.val {
		case "0":
			return false, nil
		case "1":
			return true, nil
		}
	} else {
		switch strings.ToLower(val.val) {
		case "true", "on":
			return true, nil
		case "false", "off":
			return false, nil
		}
	}
	return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", opt)
}

// transactionModes handles SET [SESSION CHARACTERISTICS AS] TRANSACTION
// modes, from token k: ISOLATION LEVEL ..., READ ONLY | READ WRITE, [NOT]
// DEFERRABLE. Each mode becomes an assignment of the run-time parameter
// Postgres maps it to (prefix "transaction_" or "default_transaction_").
func (r *rewriter) transactionModes(k int, prefix string) (ast.StmtNode, error) {
	stmt := &ast.SetStmt{}
	add := func(name, value string) {
		stmt.Variables = append(stmt.Variables, &ast.VariableAssignment{Name: prefix + name, IsSystem: true, Value: ast.NewValueExpr(value, "", "")})
	}
	for k < len(r.toks) {
		switch {
		case r.peek(k, ","):
			k++
		case r.peek(k, "isolation") && r.peek(k+1, "level"):
			k += 2
			switch {
			case r.peek(k, "serializable"):
				add("isolation", "serializable")
				k++
			case r.peek(k, "repeatable") && r.peek(k+1, "read"):
				add("isolation", "repeatable read")
				k += 2
			case r.peek(k, "read") && (r.peek(k+1, "committed") || r.peek(k+1, "uncommitted")):
				add("isolation", "read "+r.toks[k+1].val)
				k += 2
			default:
				return nil, r.syntaxErrorAt(k)
			}
		case r.peek(k, "read") && (r.peek(k+1, "only") || r.peek(k+1, "write")):
			add("read_only", map[bool]string{true: "on", false: "off"}[r.toks[k+1].val == "only"])
			k += 2
		case r.peek(k, "not") && r.peek(k+1, "deferrable"):
			add("deferrable", "off")
			k += 2
		case r.peek(k, "deferrable"):
			add("deferrable", "on")
			k++
		default:
			return nil, r.syntaxErrorAt(k)
		}
	}
	if len(stmt.Variables) == 0 {
		return nil, r.syntaxErrorAt(k)
	}
	return stmt, nil
}

// listInputParams are PostgreSQL 15's parameters that take a list
// (GUC_LIST_INPUT): found by setting every parameter of pg_settings to two
// values, which the others refuse with "SET name takes only one argument".
var listInputParams = map[string]bool{
	"datestyle": true, "listen_addresses": true, "local_preload_libraries": true, "log_destination": true,
	"restrict_nonsystem_relation_kind": true, "search_path": true, "session_preload_libraries": true,
	"shared_preload_libraries": true, "synchronous_standby_names": true, "temp_tablespaces": true,
	"unix_socket_directories": true, "wal_consistency_checking": true,
}

// checkValueCount refuses several values for a parameter that takes one,
// as PostgreSQL's flatten_set_variable_args does before it looks the
// parameter up (SET, ALTER ROLE | DATABASE SET, a function's SET).
func checkValueCount(name string, vals []string) error {
	if len(vals) > 1 && !listInputParams[name] {
		return pgerr.New(pgerr.InvalidParameterValue, "SET %s takes only one argument", name)
	}
	return nil
}

// listQuoteParams are the parameters whose list items are identifiers
// (PostgreSQL's GUC_LIST_QUOTE): SET quotes each item written as a name or
// a string where it needs quotes, so that SET search_path = "MixedCase"
// names that schema, as PostgreSQL's flatten_set_variable_args does.
var listQuoteParams = map[string]bool{
	"search_path": true, "temp_tablespaces": true, "session_preload_libraries": true,
	"shared_preload_libraries": true, "local_preload_libraries": true,
}

// listQuoted is value v of token t as an item of parameter name's value.
func listQuoted(name string, t token, v string) string {
	if !listQuoteParams[name] || t.kind == tkNumber {
		return v
	}
	return sqltypes.QuoteIdent(v)
}
