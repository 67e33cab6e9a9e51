package pgcatalog

import (
	"context"
	"github.com/zproxy/zproxy/internal/pgerr"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Session is what the catalog relations and functions see of the client's
// session and of the server around it. The session package implements it;
// the executor hands it down inside builtins.Context (as an *Env).
type Session interface {
	// User is the session's role (current_user, session_user).
	User() string
	// Database is the database the client asked for.
	Database() string
	// PID is the session's backend process id (pg_backend_pid).
	PID() int32
	// Setting reads a run-time parameter; Settings lists them all
	// (pg_settings); SetSetting is set_config, which returns the value as
	// SHOW prints it once set.
	Setting(name string) (string, bool)
	Settings() []Setting
	SetSetting(name, value string, local bool) (string, error)
	// Activity lists the sessions of every proxy of the store
	// (pg_stat_activity).
	Activity() []Activity
	// Proxies lists the live proxies sharing the store (zproxy_proxies):
	// none for a proxy alone on its store.
	Proxies() []Proxy
	// SignalBackend cancels the running statement of the session with
	// process ID pid, or ends that session when terminate is set, if the
	// session's role may (42501 otherwise); false when no session has
	// that ID. BackendAlive reports whether one still does.
	SignalBackend(pid int32, terminate bool) (bool, error)
	BackendAlive(pid int32) bool
	// PreparedStatements lists the session's named prepared statements
	// (pg_prepared_statements).
	PreparedStatements() []PreparedStatement
	// Notice sends the client a NOTICE or WARNING.
	Notice(*pgerr.Error)
	// Locks is the advisory lock table (pg_advisory_lock): the proxy's
	// own, or the store's where proxies share it; nil when there is none.
	Locks() AdvisoryLockTable
	// IsSuperuser reports whether the session's role is a superuser
	// (a user that is no role is one, under trust authentication).
	IsSuperuser() bool
	// SequenceState reads a sequence's last value and whether nextval
	// has returned it (pg_sequence_last_value, pg_sequences), checking
	// no privilege: the caller checks PostgreSQL's.
	SequenceState(ctx context.Context, seq *catalog.Sequence) (last int64, called bool, err error)
	// ExportSnapshot names the snapshot of the session's transaction for
	// other sessions to import while it is open (pg_export_snapshot).
	ExportSnapshot(ctx context.Context) (string, error)
}

// Setting is one row of pg_settings.
type Setting struct {
	Name, Value, Unit, Category, Description, Context, VarType, Source string
	EnumVals                                                           []string
	Min, Max, Boot                                                     string
}

// PreparedStatement is one row of pg_prepared_statements.
type PreparedStatement struct {
	Name, Statement string
	PrepareTime     time.Time
	ParamTypes      []uint32 // type OIDs
	FromSQL         bool
	// GenericPlans and CustomPlans count executions by how they were
	// planned.
	GenericPlans, CustomPlans int64
}

// Proxy is one row of zproxy_proxies: a live proxy of the store's
// registry (package cluster).
type Proxy struct {
	Slot      int32 // its sessions' process IDs are Slot<<20 | n
	ID        string
	Address   string
	Started   time.Time
	Heartbeat time.Time
	Self      bool // the proxy answering
}

// Activity is one row of pg_stat_activity: a session of any proxy.
type Activity struct {
	PID             int32
	User            string
	Database        string
	ApplicationName string
	// Client is the client's address and port over TCP; zero over a
	// Unix socket (client_addr NULL, client_port -1).
	Client       netip.AddrPort
	BackendStart time.Time
	XactStart    time.Time
	QueryStart   time.Time
	StateChange  time.Time
	State        string // "active", "idle", "idle in transaction", ...
	Query        string
}

// Env is a statement's view of the catalogs: the schema snapshot it was
// bound to and the session it runs in (nil while binding, when only the
// schema is known). It implements builtins.Catalog.
type Env struct {
	Ctx  context.Context
	Snap *catalog.Snapshot
	Sess Session
}

var _ builtins.Catalog = (*Env)(nil)

// NewEnv returns the catalog view of snap for sess (which may be nil).
func NewEnv(snap *catalog.Snapshot, sess Session) *Env {
	return &Env{Ctx: context.Background(), Snap: snap, Sess: sess}
}

// setSetting is a function's change of a setting (set_config, set_limit),
// made known first to the PL/pgSQL activation that makes the call, whose
// exception blocks must undo it should they fail (builtins.SettingScope).
func setSetting(ctx *builtins.Context, e *Env, name, value string, local bool) (string, error) {
	if sc, ok := ctx.Frame.(builtins.SettingScope); ok {
		if err := sc.SettingChanging(); err != nil {
			return "", err
		}
	}
	return e.Sess.SetSetting(name, value, local)
}

// envOf returns the Env a function runs with, or nil.
func envOf(ctx *builtins.Context) *Env {
	if ctx == nil {
		return nil
	}
	e, _ := ctx.Catalog.(*Env)
	return e
}

// user is the session's role, or the bootstrap superuser's name when
// there is no session.
func (e *Env) user() string {
	if e.Sess != nil {
		return e.Sess.User()
	}
	return BootstrapRole
}

// userIn is the current user of the call ctx: a SECURITY DEFINER
// routine's owner inside it (builtins.SessionInfo.User), else the
// session's.
func (e *Env) userIn(ctx *builtins.Context) string {
	if ctx != nil && ctx.Session.User != "" {
		return ctx.Session.User
	}
	return e.user()
}

func (e *Env) database() string {
	if e.Sess != nil && e.Sess.Database() != "" {
		return e.Sess.Database()
	}
	return DefaultDatabase
}

// RegName implements builtins.Catalog.
func (e *Env) RegName(t sqltypes.Type, oid uint32) string {
	switch t.ID {
	case sqltypes.RegOper:
		return e.regoperName(oid) // (InvalidOid prints as 0 here, not -)
	case sqltypes.RegOperator:
		return e.regoperatorName(oid)
	}
	if oid == 0 {
		return "-" // every reg* output function prints InvalidOid so
	}
	switch t.ID {
	case sqltypes.RegClass:
		if o := e.objects().byOID[oid]; o != nil {
			if o.ns == NamespaceCatalog {
				return sqltypes.QuoteIdent(o.name)
			}
			return e.relationName(o)
		}
	case sqltypes.RegType:
		if ty, ok := e.typeByOID(oid); ok {
			return ty.display
		}
	case sqltypes.RegProc, sqltypes.RegProcedure:
		if f, ok := e.userFunction(oid); ok {
			if t.ID == sqltypes.RegProcedure {
				names := make([]string, 0, len(f.Params))
				for _, p := range f.Params {
					if p.IsInput() {
						names = append(names, p.Type.String())
					}
				}
				return e.functionName(f) + "(" + strings.Join(names, ",") + ")"
			}
			return e.regprocName(oid, f)
		}
		if p, ok := procByOID(oid); ok {
			if t.ID == sqltypes.RegProcedure {
				// regprocedure's output separates the types with bare
				// commas: abs(integer), to_char(timestamp with time zone,text).
				names := make([]string, len(p.args))
				for i, a := range p.args {
					names[i] = typeName(a)
				}
				return p.name + "(" + strings.Join(names, ",") + ")"
			}
			return e.builtinRegprocName(p.name)
		}
		if sig, ok := postgresProcByOID(oid); ok {
			if t.ID == sqltypes.RegProcedure {
				var args []string
				for _, a := range strings.Fields(sig.args) {
					n, _ := strconv.ParseUint(a, 10, 32)
					args = append(args, e.formatType(uint32(n), -1, false))
				}
				return sig.name + "(" + strings.Join(args, ",") + ")"
			}
			return e.builtinRegprocName(sig.name)
		}
	case sqltypes.RegNamespace:
		if n := e.namespaceName(oid); n != "" {
			return sqltypes.QuoteIdent(n) // built-in, user, pg_temp_N, pg_toast_temp_N
		}
	case sqltypes.RegRole:
		for _, r := range e.roles() {
			if r.oid == oid {
				return sqltypes.QuoteIdent(r.name)
			}
		}
	case sqltypes.RegConfig:
		if c, ok := sqltypes.TSConfigByOID(oid); ok {
			return c.Name
		}
	case sqltypes.RegDictionary:
		if d, ok := sqltypes.TSDictionaryByOID(oid); ok {
			return d.Name
		}
	case sqltypes.RegCollation:
		if c, ok := sqltypes.CollationByOID(oid); ok {
			return sqltypes.QuoteIdent(c.Name) // every collation is in pg_catalog: visible
		}
	}
	return ""
}

// regprocName is regproc's output of user function f (oid): its name
// alone when regproc's input would find it by that name alone, among the
// built-in functions and the user functions the search path shows, as
// regprocout asks; qualified by its schema otherwise (an overloaded name,
// or one a built-in function has too).
func (e *Env) regprocName(oid uint32, f *catalog.Function) string {
	_, bare := catalog.SplitName(f.Name)
	if e.functionVisible(f) && builtinProcCount(bare) == 0 {
		if found, ok, err := e.userProcOID(sqltypes.QuoteIdent(bare), false); err == nil && ok && found == oid {
			return sqltypes.QuoteIdent(bare)
		}
	}
	return e.qualifiedFunctionName(f)
}

// builtinRegprocName is regproc's output of a built-in function named
// name: pg_catalog.name when the name alone finds more than it.
func (e *Env) builtinRegprocName(name string) string {
	_, user, err := e.userProcOID(sqltypes.QuoteIdent(name), false)
	if builtinProcCount(name) == 1 && !user && err == nil {
		return sqltypes.QuoteIdent(name)
	}
	return "pg_catalog." + sqltypes.QuoteIdent(name)
}

// RegOID implements builtins.Catalog.
func (e *Env) RegOID(t sqltypes.Type, name string) (uint32, error) {
	if err := regNameSyntax(t, name); err != nil {
		return 0, err
	}
	switch t.ID {
	case sqltypes.RegClass:
		return e.classOID(name)
	case sqltypes.RegType:
		return e.regtypeOID(name)
	case sqltypes.RegProc, sqltypes.RegProcedure:
		if oid, ok, err := e.userProcOID(name, t.ID == sqltypes.RegProcedure); ok || err != nil {
			return oid, err
		}
		return procOID(name, t.ID == sqltypes.RegProcedure)
	case sqltypes.RegNamespace:
		if e.Snap != nil {
			if sc, ok := e.Snap.Schema(unquoteIdent(name)); ok {
				return schemaOID(e.Snap, sc.Name), nil
			}
		}
		return namespaceOID(name)
	case sqltypes.RegRole:
		return e.roleOID(name)
	case sqltypes.RegOper:
		return e.regoperOID(name)
	case sqltypes.RegOperator:
		return e.regoperatorOID(name)
	case sqltypes.RegConfig:
		v, err := sqltypes.ParseRegConfig(name)
		if err != nil {
			return 0, err
		}
		return uint32(v.I), nil
	case sqltypes.RegDictionary:
		v, err := sqltypes.ParseRegDictionary(name)
		if err != nil {
			return 0, err
		}
		return uint32(v.I), nil
	case sqltypes.RegCollation:
		return e.collationOID(name)
	}
	return 0, nil
}

// regNameSyntax is the check of a name's syntax that PostgreSQL's reg*
// input functions make before they look the name up
// (stringToQualifiedNameList): '"a'::regclass is 42602 invalid name
// syntax, not a relation that does not exist. regnamespace and regrole
// take one name only. regtype's input goes through the SQL lexer, whose
// unterminated quoted identifier is a 42601; regprocedure and
// regoperator split their input themselves, and regoper and regconfig
// check theirs as they read it.
func regNameSyntax(t sqltypes.Type, name string) error {
	switch t.ID {
	case sqltypes.RegClass, sqltypes.RegProc, sqltypes.RegNamespace, sqltypes.RegRole, sqltypes.RegCollation:
	case sqltypes.RegType:
		return typeNameQuotes(name) // then the rest of parseTypeString's checks (regtypeOID)
	default:
		return nil
	}
	parts, err := sqltypes.SplitQualifiedName(name)
	if err != nil {
		return err
	}
	if len(parts) != 1 && (t.ID == sqltypes.RegNamespace || t.ID == sqltypes.RegRole) {
		return pgerr.New(pgerr.InvalidName, "invalid name syntax")
	}
	return nil
}

// typeNameQuotes is the SQL lexer's 42601 for a type name whose quoted
// identifier does not end ('"a'::regtype), at or near the text from its
// opening quote, with the context parseTypeString adds.
func typeNameQuotes(name string) error {
	open := -1
	for i := 0; i < len(name); i++ {
		switch {
		case name[i] != '"':
		case open < 0:
			open = i
		case i+1 < len(name) && name[i+1] == '"':
			i++ // a doubled quote inside the identifier
		default:
			open = -1
		}
	}
	if open < 0 {
		return nil
	}
	return pgerr.New(pgerr.SyntaxError, "unterminated quoted identifier at or near \"%s\"", name[open:]).
		WithWhere("invalid type name \"%s\"", name)
}
