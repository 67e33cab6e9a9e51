package session

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

// The statement log, as PostgreSQL's postgres.c and its auto_explain
// module keep it. log_statement logs a command when it arrives (before it
// runs, with the settings then in force); log_duration,
// log_min_duration_statement and log_min_duration_sample log it when it
// completes (with the settings then in force, so a SET that turns them on
// logs its own duration); a command that fails logs no duration.
// auto_explain logs the plan of each query and INSERT, UPDATE or DELETE
// whose execution took long enough. Records go to the engine's structured
// log at Info level (PostgreSQL's LOG), with PostgreSQL's message and the
// fields apart; the text of a statement that creates or alters a role is
// logged without its constants, so no password reaches the log.

// loggingParams are the logging settings zproxy implements here.
var loggingParams = map[string]bool{
	"log_statement": true, "log_duration": true, "log_min_duration_statement": true,
	"log_min_duration_sample": true, "log_statement_sample_rate": true,
	"auto_explain.log_min_duration": true, "auto_explain.log_analyze": true, "auto_explain.sample_rate": true,
	"auto_explain.log_format": true, "auto_explain.log_verbose": true, "auto_explain.log_buffers": true,
	"auto_explain.log_wal": true, "auto_explain.log_timing": true, "auto_explain.log_settings": true,
}

// Log levels of statements, PostgreSQL's LogStmtLevel: log_statement logs
// a statement whose level is at most the setting's.
const (
	logStmtNone = iota
	logStmtDDL
	logStmtMod
	logStmtAll
)

// logStatementLevels are log_statement's values.
var logStatementLevels = map[string]int{"none": logStmtNone, "ddl": logStmtDDL, "mod": logStmtMod, "all": logStmtAll}

// CommandReceived implements wire.StatementLogger: log_statement.
func (s *Session) CommandReceived(cmd *wire.LoggedCommand) {
	if cmd.Message == "parse" || cmd.Message == "bind" {
		return // PostgreSQL logs statements at Execute
	}
	// The session keeps a set value as SHOW prints it; unset is none
	// (derivedSettings: this runs for every command).
	setting := s.derived().logStatement
	if setting == logStmtNone {
		return
	}
	logged := false
	for _, st := range cmd.Statements {
		if s.logLevelOf(st) <= setting {
			logged = true
			break
		}
	}
	if !logged {
		return
	}
	cmd.Logged = true
	text := redactedSQL(cmd.SQL, cmd.Statements)
	attrs := []any{"statement", text}
	if cmd.Message != "statement" && len(cmd.Params) > 0 {
		attrs = append(attrs, "parameters", paramsDetail(cmd.Params))
	}
	s.logRecord(commandText(cmd, text), attrs...)
}

// CommandDone implements wire.StatementLogger: log_duration,
// log_min_duration_statement and log_min_duration_sample, as PostgreSQL's
// check_log_duration decides.
func (s *Session) CommandDone(cmd *wire.LoggedCommand, elapsed time.Duration) {
	d := s.derived()
	minStatement, minSample, logDuration := d.minStatement, d.minSample, d.logDuration
	if !logDuration && minStatement < 0 && minSample < 0 {
		return
	}
	ms := elapsed.Microseconds() / 1000
	exceeded := minStatement == 0 || minStatement > 0 && ms >= minStatement
	inSample := false
	if minSample == 0 || minSample > 0 && ms >= minSample {
		rate := s.realSetting("log_statement_sample_rate")
		inSample = rate != 0 && (rate == 1 || rand.Float64() <= rate)
	}
	if !exceeded && !inSample && !logDuration {
		return
	}
	duration := formatMS(elapsed)
	attrs := []any{"duration_ms", float64(elapsed.Microseconds()) / 1000}
	if (exceeded || inSample) && !cmd.Logged {
		text := redactedSQL(cmd.SQL, cmd.Statements)
		attrs = append(attrs, "statement", text)
		if cmd.Message == "bind" || cmd.Message == "execute" || cmd.Message == "execute fetch from" {
			if len(cmd.Params) > 0 {
				attrs = append(attrs, "parameters", paramsDetail(cmd.Params))
			}
		}
		s.logRecord("duration: "+duration+" ms  "+commandText(cmd, text), attrs...)
		return
	}
	s.logRecord("duration: "+duration+" ms", attrs...)
}

// logRecord writes one record of the statement log.
func (s *Session) logRecord(msg string, attrs ...any) {
	base := []any{"user", s.params.User, "database", s.params.Database, "pid", s.params.PID}
	s.engine.cfg.Logger.Log(context.Background(), slog.LevelInfo, msg, append(base, attrs...)...)
}

// commandText is a command as PostgreSQL's log names it: "statement:
// SQL", or "execute name/portal: SQL" for the extended protocol.
func commandText(cmd *wire.LoggedCommand, text string) string {
	if cmd.Message == "statement" {
		return "statement: " + text
	}
	name := cmd.Name
	if name == "" {
		name = "<unnamed>"
	}
	if cmd.Portal != "" && cmd.Message != "parse" {
		name += "/" + cmd.Portal
	}
	return cmd.Message + " " + name + ": " + text
}

// formatMS prints a duration as PostgreSQL's log does: milliseconds with
// three decimals, truncated to the microsecond.
func formatMS(d time.Duration) string {
	us := d.Microseconds()
	return fmt.Sprintf("%d.%03d", us/1000, us%1000)
}

// paramsDetail is PostgreSQL's DETAIL for a statement's parameters
// without its "parameters: " label: "$1 = '42', $2 = NULL".
func paramsDetail(params []sqltypes.Value) string {
	var b strings.Builder
	for i, v := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("$" + strconv.Itoa(i+1) + " = ")
		if v.IsNull() {
			b.WriteString("NULL")
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(sqltypes.FormatText(v), "'", "''") + "'")
	}
	return b.String()
}

// redactedSQL is sql with the text of every statement that creates or
// alters a role (which may carry a password) replaced by its normalised
// form, constants as $n. PostgreSQL logs such statements verbatim; zproxy
// never lets a password reach its log.
func redactedSQL(sql string, stmts []wire.Statement) string {
	out := sql
	for i := len(stmts) - 1; i >= 0; i-- {
		st, ok := stmts[i].(*statement)
		if !ok || st.parsed.Role == nil {
			continue
		}
		norm, _ := parser.Normalize(st.parsed.Text)
		from, to := st.parsed.Offset, st.parsed.Offset+len(st.parsed.Text)
		if from < 0 || to > len(out) || out[from:to] != st.parsed.Text {
			// The text is not where the statement says: keep none of
			// the string rather than risk a password.
			return parser.Unnormalised
		}
		out = out[:from] + norm + out[to:]
	}
	return out
}

// logLevelOf is the log_statement level of a statement, as PostgreSQL's
// GetCommandLogLevel gives it: DDL (definitions, roles, grants), mod
// (writes: INSERT, UPDATE, DELETE, TRUNCATE, COPY FROM) or all.
func (s *Session) logLevelOf(ws wire.Statement) int {
	st, ok := ws.(*statement)
	if !ok {
		return logStmtAll
	}
	if u := st.parsed.Utility; u != nil {
		return s.utilityLogLevel(u)
	}
	bound, _, _, err := st.bind(context.Background())
	if err != nil {
		// A statement that cannot bind (it names a table an earlier
		// statement of its string creates, or none) has the level of
		// its syntax, as PostgreSQL classifies raw parse trees.
		return parsedLogLevel(st.parsed)
	}
	return boundLogLevel(bound)
}

// boundLogLevel is a bound statement's log_statement level, from its
// class (ir.Description).
func boundLogLevel(b ir.Statement) int {
	switch x := b.(type) {
	case *ir.Explain:
		if x.Analyze {
			return boundLogLevel(x.Stmt) // EXPLAIN ANALYZE runs it
		}
		return logStmtAll
	case *ir.AlterSystem:
		return logStmtDDL
	}
	switch b.Describe().Class {
	case ir.ClassDDL, ir.ClassDCL:
		return logStmtDDL
	case ir.ClassDML:
		return logStmtMod
	}
	return logStmtAll
}

// parsedLogLevel is a statement's log_statement level from its syntax
// alone.
func parsedLogLevel(p *parser.Statement) int {
	switch {
	case p.Explain != nil:
		if p.Explain.Analyze && p.Merge != nil {
			return logStmtMod
		}
		if p.Explain.Analyze {
			if x, ok := p.AST.(*ast.ExplainStmt); ok {
				return parsedLogLevel(&parser.Statement{AST: x.Stmt})
			}
		}
		return logStmtAll
	case p.CreateAs != nil || p.Role != nil || p.Sequence != nil || p.Alter != nil || p.Comment != nil ||
		p.Extension != nil || p.Owner != nil || p.Database != nil:
		return logStmtDDL
	case p.Truncate != nil, p.Merge != nil:
		return logStmtMod
	}
	switch p.AST.(type) {
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		return logStmtMod
	case ast.DDLNode:
		return logStmtDDL
	}
	return logStmtAll
}

// utilityLogLevel is the log_statement level of a session statement:
// PREPARE has its statement's, EXECUTE its prepared statement's, COPY
// FROM writes, and the rest (cursors, notifications) are all.
func (s *Session) utilityLogLevel(u *parser.UtilityStatement) int {
	switch u.Kind {
	case "prepare":
		if u.Inner != nil {
			return s.logLevelOf(&statement{sess: s, parsed: u.Inner})
		}
	case "execute":
		if ps, _, _, err := s.preparedFor(context.Background(), u.Name); err == nil {
			return s.logLevelOf(ps)
		}
	case "copy":
		if u.Copy != nil && u.Copy.From {
			return logStmtMod
		}
	}
	return logStmtAll
}

// msSetting is an integer setting in its base unit (milliseconds for
// these); the boot value -1 when it was never set.
func (s *Session) msSetting(n string) int64 {
	v, ok := s.vars[n]
	if !ok {
		return -1
	}
	return int64(s.realValue(n, v))
}

// realSetting is a numeric setting's value.
func (s *Session) realSetting(n string) float64 {
	return s.realValue(n, s.varValue(n))
}

// realValue reads v, a value of numeric setting n as the session keeps
// it (SHOW's form, with a unit), in the setting's base unit.
func (s *Session) realValue(n, v string) float64 {
	p, ok := guc.Lookup(n)
	if !ok {
		return -1
	}
	pv, err := p.Parse(v)
	if err != nil {
		return -1
	}
	if pv.Exact != "" {
		v = pv.Exact
	} else {
		v = pv.Setting
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return -1
	}
	return f
}

// autoExplainStart decides, as a statement's execution starts, whether
// auto_explain may log its plan (auto_explain.log_min_duration is set and
// the statement falls in auto_explain.sample_rate), and returns the node
// statistics the executor should gather for auto_explain.log_analyze
// (nil when none).
func (st *statement) autoExplainStart() map[optimizer.Node]*optimizer.NodeStats {
	s := st.sess
	st.explainLog, st.explainStats = false, nil
	if s.derived().autoExplainMin < 0 {
		return nil
	}
	if rate := s.realSetting("auto_explain.sample_rate"); rate < 1 && rand.Float64() > rate {
		return nil
	}
	st.explainLog = true
	if s.vars["auto_explain.log_analyze"] == "on" {
		st.explainStats = map[optimizer.Node]*optimizer.NodeStats{}
	}
	return st.explainStats
}

// autoExplainDone logs plan, auto_explain's "duration: ... ms  plan:"
// record, when its execution took at least auto_explain.log_min_duration.
// rows is what the statement returned or wrote, for the plan's top node
// under log_analyze (the executor counts the nodes below it).
func (st *statement) autoExplainDone(plan *optimizer.Plan, elapsed time.Duration, rows int64, kvs *kv.Stats) {
	if !st.explainLog || plan == nil {
		return
	}
	st.explainLog = false
	// As auto_explain, the executor's time: planning is not in it.
	elapsed -= st.planTime
	min := st.sess.msSetting("auto_explain.log_min_duration")
	if min < 0 || elapsed.Microseconds()/1000 < min {
		return
	}
	stats := st.explainStats
	if stats != nil && stats[plan.Root] == nil {
		// A write's: the statement's figures, as EXPLAIN ANALYZE's.
		stats[plan.Root] = &optimizer.NodeStats{Rows: rows, Time: elapsed, Loops: 1}
		if kvs != nil {
			stats[plan.Root].ItemsRead, stats[plan.Root].Requests = kvs.ItemsRead.Load(), kvs.Requests.Load()
		}
	}
	on := func(name string) bool { return st.sess.vars["auto_explain."+name] == "on" }
	// auto_explain's log_verbose, log_settings and, with log_analyze,
	// log_buffers, log_wal and log_timing (on by default) are EXPLAIN's
	// options of those names; costs are always on.
	doc := optimizer.ExplainDoc{Analyze: stats != nil, Costs: true, Verbose: on("log_verbose"),
		Buffers: stats != nil && on("log_buffers"), WAL: stats != nil && on("log_wal"),
		Timing: stats != nil && st.sess.vars["auto_explain.log_timing"] != "off", QueryText: st.parsed.Text}
	if doc.WAL && kvs != nil {
		// A write's figures are the statement's: the executor counts
		// its ops as it hands them to the store.
		stats[plan.Root].WALRecords, stats[plan.Root].WALBytes = kvs.OpsWritten.Load(), kvs.BytesWritten.Load()
	}
	if on("log_settings") {
		doc.Settings = st.sess.explainSettings()
	}
	var text string
	if format := st.sess.vars["auto_explain.log_format"]; format != "" && format != "text" {
		// auto_explain's structured formats: the query text and the plan
		// in PostgreSQL's layout.
		doc.Format = format
		text = optimizer.ExplainStructured(plan, stats, doc)
	} else {
		lines := optimizer.ExplainText(plan, stats, doc)
		if len(doc.Settings) > 0 {
			var set []string
			for _, kv := range doc.Settings {
				set = append(set, fmt.Sprintf("%s = '%s'", kv[0], kv[1]))
			}
			lines = append(lines, "Settings: "+strings.Join(set, ", "))
		}
		text = "Query Text: " + st.parsed.Text + "\n" + strings.Join(lines, "\n")
	}
	st.sess.logRecord(fmt.Sprintf("duration: %.3f ms  plan:\n%s", float64(elapsed.Nanoseconds())/1e6, text),
		"duration_ms", float64(elapsed.Microseconds())/1000, "statement", st.parsed.Text, "plan", text)
}

// serverSettings checks the server's settings (Config.Settings) and
// returns them by canonical name, each valued as SHOW prints it. Only the
// statement log's settings may be set so: the rest are each session's.
func serverSettings(in map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(in))
	for name, value := range in {
		n, ok := canonicalVar(name)
		if !ok || !loggingParams[n] {
			return nil, fmt.Errorf("setting %q: not a setting of the statement log", name)
		}
		p, _ := guc.Lookup(n)
		v, err := setGUC(p, n, value)
		if err != nil {
			return nil, fmt.Errorf("setting %s: %w", name, err)
		}
		out[n] = v
	}
	return out, nil
}

// defaultVars are a new session's settings: zproxy's defaults, and the
// server's settings over them.
func (e *Engine) defaultVars() map[string]string {
	v := defaultVars(e.cfg.AllowFullScan)
	for n, value := range e.cfg.Settings {
		v[n] = value
	}
	return v
}
