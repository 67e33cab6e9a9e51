package wire

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// fakeEngine is an in-memory Engine that understands a handful of canned
// statements, enough to drive every path of the protocol deterministically:
//
//	ECHO t1 t2 ...   parameters $1..$n of types t1..tn; one row echoing them
//	NULLS t1 t2 ...  one row of NULLs of the given types
//	SERIES n         n rows 1..n of one bigint column "n"
//	SLEEP            blocks until the context ends (57014) or release is closed
//	FAIL code pos    fails at Execute with that SQLSTATE and position
//	DESCFAIL         fails at Describe and Execute with 42P01
//	SYNTAX ...       fails at Parse with 42601 pointing at SYNTAX
//	PANIC            panics in Execute; PANICROWS panics in Next after a row
//	GOERR            fails with a plain Go error (XX000)
//	NOTICE text      sends a NOTICE between two rows
//	SET name value   reports a ParameterStatus
//	LIMITS st idle   sets the session's statement_timeout and
//	                 idle_in_transaction_session_timeout (Go durations)
//	BEGIN / COMMIT / ROLLBACK, INSERT ...  transaction status and tags
type fakeEngine struct {
	started  chan string   // receives "SLEEP" when a SLEEP starts
	release  chan struct{} // closing it ends every SLEEP successfully
	maxSleep time.Duration // when > 0, SLEEP ends by itself after this long

	// styles counts the sessions' Style calls.
	styles atomic.Int64

	mu       sync.Mutex
	sessions int
	closed   int
	params   []SessionParams
	roles    map[string]Role
}

// addRole adds a role; an empty password leaves it without one.
func (e *fakeEngine) addRole(t testing.TB, name, password string, login, superuser bool) {
	t.Helper()
	r := Role{Name: name, Exists: true, Login: login, Superuser: superuser}
	if password != "" {
		v, err := auth.NewVerifier(password)
		if err != nil {
			t.Fatal(err)
		}
		r.Verifier = v.String()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.roles == nil {
		e.roles = map[string]Role{}
	}
	e.roles[name] = r
}

func (e *fakeEngine) LookupRole(_ context.Context, name string) (Role, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if name == "lookupfails" {
		return Role{}, pgerr.New(pgerr.ConnectionFailure, "the backing store is unavailable")
	}
	r, ok := e.roles[name]
	if !ok {
		if strings.HasPrefix(name, "stranger") {
			return Role{Name: name}, nil // no role
		}
		// Every other name is a superuser with no password, so tests may
		// connect as anyone under trust.
		return Role{Name: name, Exists: true, Login: true, Superuser: true}, nil
	}
	return r, nil
}

func newFakeEngine() *fakeEngine {
	return &fakeEngine{started: make(chan string, 16), release: make(chan struct{})}
}

func (e *fakeEngine) NewSession(ctx context.Context, p SessionParams) (Session, error) {
	if p.Database == "nodb" {
		return nil, pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", p.Database)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.sessions++
	e.params = append(e.params, p)
	return &fakeSession{eng: e, p: p, tx: 'I'}, nil
}

func (e *fakeEngine) openSessions() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sessions - e.closed
}

type fakeSession struct {
	eng    *fakeEngine
	p      SessionParams
	tx     byte
	limits Limits
}

func (s *fakeSession) TxStatus() byte { return s.tx }

func (s *fakeSession) Limits() Limits { return s.limits }

func (s *fakeSession) TimeZone() *time.Location { return time.UTC }

func (s *fakeSession) Style() sqltypes.Style {
	s.eng.styles.Add(1)
	return sqltypes.Style{}
}

func (s *fakeSession) Setting(string) (string, bool) { return "", false }

func (s *fakeSession) Close() {
	s.eng.mu.Lock()
	s.eng.closed++
	s.eng.mu.Unlock()
}

func (s *fakeSession) Parse(ctx context.Context, sql string, paramTypes []sqltypes.Type) ([]Statement, error) {
	var out []Statement
	offset := 0
	for _, part := range strings.Split(sql, ";") {
		text := strings.TrimSpace(part)
		start := offset + strings.Index(part, text)
		offset += len(part) + 1
		if text == "" || strings.HasPrefix(text, "--") {
			continue
		}
		words := strings.Fields(text)
		if strings.EqualFold(words[0], "SYNTAX") {
			return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near %q", words[0]).WithPosition(start + 1)
		}
		out = append(out, &fakeStmt{sess: s, sql: text, words: words})
	}
	return out, nil
}

type fakeStmt struct {
	sess  *fakeSession
	sql   string
	words []string
}

func (st *fakeStmt) SQL() string { return st.sql }

func (st *fakeStmt) verb() string { return strings.ToUpper(st.words[0]) }

func (st *fakeStmt) types() ([]sqltypes.Type, error) {
	var ts []sqltypes.Type
	for _, w := range st.words[1:] {
		t, ok := sqltypes.LookupType(w)
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", w)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

func columns(ts []sqltypes.Type) []Column {
	cols := make([]Column, len(ts))
	for i, t := range ts {
		cols[i] = Column{Name: "c" + strconv.Itoa(i+1), Type: t}
	}
	return cols
}

func (st *fakeStmt) Describe(ctx context.Context) ([]sqltypes.Type, []Column, error) {
	switch st.verb() {
	case "ECHO":
		ts, err := st.types()
		return ts, columns(ts), err
	case "NULLS":
		ts, err := st.types()
		return nil, columns(ts), err
	case "SERIES", "PANICROWS", "NOTICE":
		return nil, []Column{{Name: "n", Type: sqltypes.TypeInt8}}, nil
	case "DESCFAIL":
		return nil, nil, pgerr.New(pgerr.UndefinedTable, "relation \"nope\" does not exist").WithPosition(10)
	}
	return nil, nil, nil
}

func (st *fakeStmt) Execute(ctx context.Context, params []sqltypes.Value) (Result, error) {
	s := st.sess
	verb := st.verb()
	if s.tx == 'E' && verb != "COMMIT" && verb != "ROLLBACK" {
		return nil, pgerr.New(pgerr.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	res, err := st.execute(ctx, params)
	if err != nil && s.tx == 'T' {
		s.tx = 'E'
	}
	return res, err
}

func (st *fakeStmt) execute(ctx context.Context, params []sqltypes.Value) (Result, error) {
	s := st.sess
	switch verb := st.verb(); verb {
	case "ECHO":
		ts, err := st.types()
		if err != nil {
			return nil, err
		}
		if len(params) != len(ts) {
			return nil, pgerr.New(pgerr.ProtocolViolation, "ECHO wants %d parameters, got %d", len(ts), len(params))
		}
		row := append([]sqltypes.Value(nil), params...)
		return &fakeResult{cols: columns(ts), rows: [][]sqltypes.Value{row}, tag: "SELECT 1"}, nil
	case "NULLS":
		ts, err := st.types()
		if err != nil {
			return nil, err
		}
		return &fakeResult{cols: columns(ts), rows: [][]sqltypes.Value{make([]sqltypes.Value, len(ts))}, tag: "SELECT 1"}, nil
	case "SERIES":
		n, err := strconv.Atoi(st.words[len(st.words)-1])
		if err != nil || n < 0 || n > 100000 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "bad SERIES count")
		}
		return &fakeResult{cols: []Column{{Name: "n", Type: sqltypes.TypeInt8}}, series: n}, nil
	case "SLEEP":
		select {
		case st.sess.eng.started <- "SLEEP":
		default:
		}
		var timeout <-chan time.Time
		if d := s.eng.maxSleep; d > 0 {
			timeout = time.After(d)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.eng.release:
		case <-timeout:
		}
		return &fakeResult{tag: "SLEEP"}, nil
	case "FAIL":
		pos := 0
		if len(st.words) > 2 {
			pos, _ = strconv.Atoi(st.words[2])
		}
		return nil, pgerr.New(pgerr.FromSQLState(st.words[1]), "fake failure").WithDetail("some detail").WithHint("some hint").WithPosition(pos)
	case "DESCFAIL":
		_, _, err := st.Describe(ctx)
		return nil, err
	case "PANIC":
		if len(st.words) > 1 { // PANIC words: a panic value quoting the statement
			panic(fmt.Sprintf("fake panic on %q", strings.Join(st.words[1:], " ")))
		}
		panic("fake panic")
	case "PANICROWS":
		return &fakeResult{cols: []Column{{Name: "n", Type: sqltypes.TypeInt8}}, series: 3, panicAt: 2}, nil
	case "RAISED": // an XX000 PostgreSQL raises for the user's input
		return nil, pgerr.Raised("fake raised error")
	case "GOERR":
		if len(st.words) > 1 { // GOERR words: an unclassified error quoting the statement
			return nil, fmt.Errorf("plain go error: parsing %q", strings.Join(st.words[1:], " "))
		}
		return nil, errors.New("plain go error")
	case "NOTICE":
		return &fakeResult{cols: []Column{{Name: "n", Type: sqltypes.TypeInt8}}, series: 2, noticeAt: 1,
			notice: func() { s.p.Notice(pgerr.Notice("%s", strings.Join(st.words[1:], " "))) }}, nil
	case "SET":
		if len(st.words) != 3 {
			return nil, pgerr.New(pgerr.SyntaxError, "SET wants a name and a value")
		}
		s.p.ParameterStatus(st.words[1], st.words[2])
		return &fakeResult{tag: "SET"}, nil
	case "LIMITS":
		if len(st.words) != 3 {
			return nil, pgerr.New(pgerr.SyntaxError, "LIMITS wants two durations")
		}
		stmt, err1 := time.ParseDuration(st.words[1])
		idle, err2 := time.ParseDuration(st.words[2])
		if err1 != nil || err2 != nil {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "bad LIMITS")
		}
		s.limits = Limits{StatementTimeout: stmt, IdleInTransactionTimeout: idle}
		return &fakeResult{tag: "SET"}, nil
	case "BEGIN":
		s.tx = 'T'
		return &fakeResult{tag: "BEGIN"}, nil
	case "COMMIT", "ROLLBACK":
		tag := verb
		if s.tx == 'E' {
			tag = "ROLLBACK"
		}
		s.tx = 'I'
		return &fakeResult{tag: tag}, nil
	case "INSERT":
		return &fakeResult{tag: "INSERT 0 1"}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "fake engine does not know %q", st.words[0])
}

type fakeResult struct {
	cols     []Column
	rows     [][]sqltypes.Value
	series   int // when > 0: rows 1..series
	panicAt  int // when > 0: Next panics at this row number
	noticeAt int // when > 0: notice runs before this row is returned
	notice   func()
	tag      string

	next   int
	row    [1]sqltypes.Value
	closed bool
}

func (r *fakeResult) Columns() []Column { return r.cols }

func (r *fakeResult) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if r.closed {
		return nil, false, errors.New("fake result used after Close")
	}
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	r.next++
	if r.panicAt > 0 && r.next == r.panicAt {
		panic("fake panic in Next")
	}
	if r.noticeAt > 0 && r.next == r.noticeAt {
		r.notice()
	}
	if r.series > 0 {
		if r.next > r.series {
			r.tag = "SELECT " + strconv.Itoa(r.series)
			return nil, false, nil
		}
		r.row[0] = sqltypes.NewInt(int64(r.next))
		return r.row[:], true, nil
	}
	if r.next > len(r.rows) {
		return nil, false, nil
	}
	return r.rows[r.next-1], true, nil
}

func (r *fakeResult) Tag() string { return r.tag }

func (r *fakeResult) Close() error {
	if r.closed {
		return errors.New("fake result closed twice")
	}
	r.closed = true
	return nil
}
