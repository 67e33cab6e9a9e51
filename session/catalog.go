package session

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/guc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/wire"
)

// What the catalog relations and functions (package catalog/pgcatalog) see
// of sessions: each session's own facts (pgSession implements
// pgcatalog.Session), the proxy's other sessions for pg_stat_activity, and
// the proxy's advisory locks.

// catalogState is an engine's registry of live sessions and its advisory
// lock table.
type catalogState struct {
	mu       sync.Mutex
	sessions map[*Session]*activity
	// copying counts the CREATE DATABASE ... TEMPLATE copies of each
	// database under way: a new session of one waits in register until
	// they end (PostgreSQL's lock on the source database); copied is
	// signalled as each ends.
	copying map[uint64]int
	copied  *sync.Cond
	nextPID atomic.Int32
	locks   pgcatalog.AdvisoryLockTable
}

// activity is what pg_stat_activity shows of one session. pid and start
// are fixed; mu guards the rest, which the session's goroutine changes at
// every statement: a lock of the session's own, so that statements of
// different sessions never wait on each other to say they run.
type activity struct {
	pid        int32
	start      time.Time
	mu         sync.Mutex
	queryStart time.Time
	change     time.Time
	query      string
	active     bool
	appName    string
	txStatus   byte
}

func newCatalogState(exclusive bool, shared pgcatalog.AdvisoryLockTable) *catalogState {
	c := &catalogState{sessions: map[*Session]*activity{}, copying: map[uint64]int{}}
	c.copied = sync.NewCond(&c.mu)
	c.nextPID.Store(1000)
	switch {
	case exclusive:
		// This proxy is the store's only client: its advisory locks
		// live in its memory.
		c.locks = pgcatalog.NewAdvisoryLocks()
	case shared != nil:
		// Proxies share the store: the locks live in it, so they
		// exclude the sessions of every proxy (package cluster).
		c.locks = shared
	}
	return c
}

// register records a new session under the process id wire gave its
// connection (BackendKeyData: what CancelRequest names and what clients
// show), or one of its own for a session without a connection.
func (c *catalogState) register(s *Session) {
	now := time.Now()
	pid := int32(s.params.PID)
	if pid == 0 {
		pid = c.nextPID.Add(1)
	}
	a := &activity{pid: pid, start: now, change: now}
	s.activity = a
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.copying[s.engine.dbID] > 0 {
		c.copied.Wait()
	}
	c.sessions[s] = a
}

// startCopy marks database id as being copied: new sessions of it wait.
// The returned func ends the mark.
func (c *catalogState) startCopy(id uint64) func() {
	c.mu.Lock()
	c.copying[id]++
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		if c.copying[id]--; c.copying[id] == 0 {
			delete(c.copying, id)
		}
		c.mu.Unlock()
		c.copied.Broadcast()
	}
}

// unregister forgets a session and releases its advisory locks.
func (c *catalogState) unregister(s *Session) {
	c.mu.Lock()
	a := c.sessions[s]
	delete(c.sessions, s)
	c.mu.Unlock()
	if a != nil && c.locks != nil {
		// The session is gone whatever the store says: a lock left
		// behind by a failure here is freed when this proxy leaves the
		// registry.
		ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
		defer cancel()
		_ = c.locks.UnlockAll(ctx, uint64(a.pid))
	}
}

// started marks a session running query since now (the statement's start,
// which its caller has read from the clock already); idle marks it idle
// again.
func (c *catalogState) started(s *Session, query string, now time.Time) {
	a := s.activity
	if a == nil {
		return
	}
	a.mu.Lock()
	a.query, a.queryStart, a.change, a.active = query, now, now, true
	a.appName, a.txStatus = s.derived().appName, s.txStatus
	a.mu.Unlock()
}

// idle marks a session's statement, started, done.
func (c *catalogState) idle(s *Session) {
	a := s.activity
	if a == nil {
		return
	}
	a.mu.Lock()
	a.active, a.change = false, time.Now()
	a.appName, a.txStatus = s.derived().appName, s.txStatus
	a.mu.Unlock()
}

func (c *catalogState) pid(s *Session) int32 {
	if a := s.activity; a != nil {
		return a.pid
	}
	return 0
}

// pgSession is a session as package pgcatalog sees it.
type pgSession struct{ s *Session }

var _ pgcatalog.Session = pgSession{}

// catalogEnv is the catalog view of the statement bound to st's snapshot.
func (st *statement) catalogEnv(ctx context.Context) *pgcatalog.Env {
	return st.catalogEnvIn(&pgcatalog.Env{}, ctx)
}

// catalogEnvIn is catalogEnv made in env, a new one.
func (st *statement) catalogEnvIn(env *pgcatalog.Env, ctx context.Context) *pgcatalog.Env {
	*env = pgcatalog.Env{Ctx: ctx, Snap: st.boundSnap, Sess: pgSession{st.sess}}
	return env
}

func (p pgSession) User() string     { return p.s.currentUser() }
func (p pgSession) Database() string { return p.s.params.Database }
func (p pgSession) PID() int32       { return p.s.engine.cat.pid(p.s) }

func (p pgSession) Setting(name string) (string, bool) { return p.s.Setting(name) }

func (p pgSession) Settings() []pgcatalog.Setting {
	var out []pgcatalog.Setting
	for _, kv := range p.s.showAll() {
		n, value := kv[0], kv[1]
		if hiddenVars[n] || !p.s.mayReadVar(n) {
			continue
		}
		if g, ok := guc.Lookup(n); ok && !g.SessionSettable() {
			out = append(out, p.s.serverVarSetting(g, n))
			continue
		}
		m := metaOf(n)
		boot := defaultVars(true)[n]
		if g, ok := guc.Lookup(n); ok {
			if _, known := knownVars[n]; !known {
				boot = g.BootValue().Show
			}
		}
		st := pgcatalog.Setting{Name: displayName(n), Value: value, Boot: boot, VarType: m.vartype, Context: m.context,
			Category: m.category, Description: m.desc, Unit: m.unit, Min: m.min, Max: m.max, EnumVals: m.enumvals}
		if value != boot {
			st.Source = "session"
		}
		if m.unit != "" {
			// pg_settings shows a setting in its unit, as a number.
			st.Value, st.Boot = inUnit(n, value, m.unit), inUnit(n, boot, m.unit)
		}
		out = append(out, st)
	}
	// PostgreSQL's work_mem is zproxy.work_mem; tools look it up by
	// PostgreSQL's name.
	if g, ok := guc.Lookup("work_mem"); ok {
		value, boot := p.s.varValue(varWorkMem), defaultVars(true)[varWorkMem]
		st := pgcatalog.Setting{Name: g.Name, Value: inUnit(g.Name, value, g.Unit), Boot: inUnit(g.Name, boot, g.Unit), VarType: g.Type.String(),
			Context: g.Context, Category: g.Category, Description: g.Desc, Unit: g.Unit, Min: g.Min, Max: g.Max}
		if value != boot {
			st.Source = "session"
		}
		out = append(out, st)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// inUnit is a setting's value as a number of its base unit, as
// pg_settings.setting shows it; a value it cannot read stays as it is.
func inUnit(n, v, unit string) string {
	if g, ok := guc.Lookup(n); ok {
		if parsed, err := g.Parse(v); err == nil {
			return parsed.Setting
		}
		return v
	}
	v = strings.TrimSpace(v)
	if unit != "kB" || v == "-1" {
		return v
	}
	n64, err := parseMemory(v)
	if err != nil {
		return v
	}
	return strconv.FormatInt(n64>>10, 10)
}

func (p pgSession) SetSetting(name, value string, local bool) (string, error) {
	n, err := p.s.defineVar(name)
	if err != nil {
		return "", err
	}
	if local && p.s.txStatus == 'I' {
		// Outside a block the statement's own transaction is the scope:
		// the value holds until the statement ends (endStatementTxn).
		before := p.s.varValue(n)
		if err := p.s.setVar(name, value, false); err != nil {
			return "", err
		}
		p.s.statementLocals = append(p.s.statementLocals, gucRestore{name: n, value: before})
		return p.s.varValue(n), nil
	}
	if err := p.s.setScoped(name, value, false, local); err != nil {
		return "", err
	}
	return p.s.varValue(n), nil
}

func (p pgSession) Activity() []pgcatalog.Activity {
	e := p.s.engine
	var out []pgcatalog.Activity
	for _, ps := range e.localActivity() {
		out = append(out, ps.Activity)
	}
	if e.cfg.Cluster == nil {
		return out
	}
	// The other proxies' sessions: pg_stat_activity is the database's,
	// not one proxy's. One that does not answer is left out.
	ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
	defer cancel()
	peers, err := e.cfg.Cluster.PeerSessions(ctx)
	if err != nil {
		e.cfg.Logger.Warn("pg_stat_activity: the proxy registry could not be read", "err", err)
	}
	for _, b := range peers {
		for _, ps := range decodeSessions(b) {
			out = append(out, ps.Activity)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// Proxies implements pgcatalog.Session: the live proxies of the store's
// registry, none for a proxy alone.
func (p pgSession) Proxies() []pgcatalog.Proxy {
	c := p.s.engine.cfg.Cluster
	if c == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
	defer cancel()
	proxies, err := c.Proxies(ctx)
	if err != nil {
		p.s.engine.cfg.Logger.Warn("zproxy_proxies: the proxy registry could not be read", "err", err)
	}
	return proxies
}

func (p pgSession) Locks() pgcatalog.AdvisoryLockTable { return p.s.engine.cat.locks }

func (p pgSession) IsSuperuser() bool {
	snap, err := p.s.snapshot(context.Background())
	if err != nil {
		return false
	}
	return p.s.isSuperuser(snap)
}

// Notice sends a notice to the client (an advisory unlock of a lock not
// held warns).
func (p pgSession) Notice(e *pgerr.Error) { p.s.notice(e) }

// commentTrigger returns triggers with the one named name commented
// text, copied so the snapshot's descriptor stays as it was.
func commentTrigger(triggers []*catalog.Trigger, name, text string) []*catalog.Trigger {
	out := slices.Clone(triggers)
	for i, tg := range out {
		if tg.Name == name {
			c := *tg
			c.Comment = text
			out[i] = &c
		}
	}
	return out
}

// commentOnLargeObject is COMMENT ON LARGE OBJECT: its owner (or a
// superuser) rewrites the object's metadata in the statement's
// transaction.
func (s *Session) commentOnLargeObject(ctx context.Context, c *ir.Comment) (wire.Result, error) {
	rw, lo, _, err := s.ownedLargeObject(ctx, c.LargeObject)
	if err != nil {
		return nil, err
	}
	lo.Comment = c.Text
	if err := catalog.SetLargeObjectMeta(ctx, rw, lo); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("COMMENT"), nil
}

// commentOnDatabase is COMMENT ON DATABASE: the owner (or a superuser)
// comments; a database that does not exist is a warning, as PostgreSQL
// gives for a comment on one (pg_dump names the database it came from).
func (s *Session) commentOnDatabase(ctx context.Context, c *ir.Comment) (wire.Result, error) {
	_, err := s.engine.root.catalog.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		d := s.engine.findDatabase(snap, c.Database)
		if d == nil {
			return catalog.Change{}, errNothingToDo
		}
		if !s.mayManage(snap, d) {
			return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of database %s", d.Name)
		}
		nd := d.Clone()
		nd.Comment = c.Text
		return catalog.Change{PutDatabases: []*catalog.Database{nd}}, nil
	})
	if errors.Is(err, errNothingToDo) {
		s.notice(pgerr.NewWarning(pgerr.UndefinedDatabase, "database \"%s\" does not exist", c.Database))
		err = nil
	}
	if err != nil {
		return nil, storeErr(err)
	}
	return tagResult("COMMENT"), nil
}

// commentOnRole is COMMENT ON ROLE, which only a superuser may give (a
// role with CREATEROLE may in PostgreSQL; zproxy's roles are created by
// superusers only).
func (s *Session) commentOnRole(ctx context.Context, c *ir.Comment) (wire.Result, error) {
	err := s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		r := snap.Role(c.Role)
		if r == nil || c.Role == catalog.PublicRole {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", c.Role)
		}
		if !s.isSuperuser(snap) {
			if r.Superuser {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be superuser")
			}
			return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must have CREATEROLE privilege")
		}
		nr := r.Clone()
		nr.Comment = c.Text
		return catalog.Change{PutRoles: []*catalog.Role{nr}}, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return tagResult("COMMENT"), nil
}

// runComment applies COMMENT ON as one catalog change, on the newest
// descriptor. Only the owner of the object (or a superuser) may comment.
func (st *statement) runComment(ctx context.Context, c *ir.Comment, _ *runEnv) (wire.Result, error) {
	s := st.sess
	// Large objects, extensions, databases and roles are not the
	// database's schema: their comments never open the block's catalog.
	switch {
	case c.LargeObject != 0:
		return s.commentOnLargeObject(ctx, c)
	case c.Extension != "":
		// The comment is the extension's already (the binder checked);
		// only its owner, the bootstrap superuser, may give it.
		snap, err := s.snapshot(ctx)
		if err != nil {
			return nil, storeErr(err)
		}
		if !s.isSuperuser(snap) {
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of extension %s", c.Extension)
		}
		return tagResult("COMMENT"), nil
	case c.Database != "":
		return s.commentOnDatabase(ctx, c)
	case c.Role != "":
		return s.commentOnRole(ctx, c)
	}
	cat := s.temp.cat
	if c.Table == nil || !c.Table.Temp {
		var err error
		if cat, err = s.permCatalog(ctx); err != nil {
			return nil, err
		}
	}
	_, err := cat.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		if c.Sequence != nil {
			q, ok := snap.Sequence(c.Sequence.Name)
			if !ok || q.ID != c.Sequence.ID {
				return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", c.Sequence.Name)
			}
			nq := *q
			nq.Comment = c.Text
			return catalog.Change{PutSequences: []*catalog.Sequence{&nq}}, nil
		}
		if c.Schema != "" {
			sc, ok := snap.Schema(c.Schema)
			if !ok {
				return catalog.Change{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", c.Schema)
			}
			if !s.isSuperuser(snap) && !snap.IsMemberOf(s.currentUser(), sc.Owner) {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", sc.Name)
			}
			n := *sc
			n.Comment = c.Text
			return catalog.Change{PutSchemas: []*catalog.Schema{&n}}, nil
		}
		if c.View != nil {
			v, ok := snap.StoredView(c.View.Name)
			if !ok {
				return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", c.View.Name)
			}
			if !s.isSuperuser(snap) {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of view %s", v.Name)
			}
			nv := *v
			if c.Trigger != "" {
				nv.Triggers = commentTrigger(v.Triggers, c.Trigger, c.Text)
			} else {
				nv.Comment = c.Text
			}
			return catalog.Change{PutViews: []*catalog.View{&nv}}, nil
		}
		t, err := snap.Table(c.Table.Name)
		if err != nil || t.ID != c.Table.ID {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", c.Table.Name)
		}
		if !s.isSuperuser(snap) && t.Owner != s.currentUser() {
			return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of table %s", t.Name)
		}
		nt := t.Clone()
		switch {
		case c.Constraint != "":
			if !nt.HasConstraint(c.Constraint) {
				return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", c.Constraint, t.Name)
			}
			nt.SetConstraintComment(c.Constraint, c.Text)
		case c.Trigger != "":
			nt.Triggers = commentTrigger(nt.Triggers, c.Trigger, c.Text)
		case c.Index != "":
			ix := nt.Index(c.Index)
			if ix == nil {
				return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "index %q does not exist", c.Index)
			}
			ix.Comment = c.Text
		case c.Column >= 0:
			nt.Columns[c.Column].Comment = c.Text
		default:
			nt.Comment = c.Text
		}
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return tagResult("COMMENT"), nil
}

// runExtension runs CREATE and DROP EXTENSION over the built-in
// extensions, whose objects exist in every database. CREATE records that
// the database created one (catalog.Extension): once only, as
// PostgreSQL's (42710 after; a NOTICE with IF NOT EXISTS), and an
// extension the database already uses counts as created (a column of
// geometry needs postgis). DROP removes the record, unless something
// uses the extension's types (2BP01, as PostgreSQL's dependency check;
// zproxy cannot drop the dependents, so CASCADE is 0A000); an extension
// the database never created cannot be dropped, since its objects are
// built in.
func (s *Session) runExtension(ctx context.Context, x *ir.Extension) (wire.Result, error) {
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, err
	}
	var notices []*pgerr.Error
	_, err = cat.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		notices = notices[:0]
		super := s.isSuperuser(snap)
		var ch catalog.Change
		if !x.Drop {
			ext := x.Present[0]
			_, created := snap.Extension(ext.Name)
			if _, used := pgcatalog.ExtensionUser(snap, ext); created || used {
				if !x.MissingOK {
					return ch, pgerr.New(pgerr.DuplicateObject, "extension %q already exists", ext.Name)
				}
				n := pgerr.New(pgerr.DuplicateObject, "extension %q already exists, skipping", ext.Name)
				n.Severity = "NOTICE"
				notices = append(notices, n)
				return ch, nil
			}
			if err := s.checkExtensionOptions(snap, x, ext); err != nil {
				return ch, err
			}
			switch {
			case super:
			case !ext.Trusted:
				return ch, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create extension %q", ext.Name).
					WithHint("Must be superuser to create this extension.")
			case !s.holdsDatabasePrivilege(snap, catalog.PrivCreate):
				return ch, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", s.params.Database)
			}
			ch.PutExtensions = []*catalog.Extension{{Name: ext.Name, Owner: s.currentUser()}}
			return ch, nil
		}
		for _, name := range x.Missing {
			notices = append(notices, pgerr.Notice("extension %q does not exist, skipping", name))
		}
		for _, ext := range x.Present {
			rec, created := snap.Extension(ext.Name)
			user, used := pgcatalog.ExtensionUser(snap, ext)
			switch {
			case created && !super && !snap.IsMemberOf(s.currentUser(), rec.Owner):
				return ch, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of extension %s", ext.Name)
			case used && x.Cascade:
				return ch, pgerr.New(pgerr.FeatureNotSupported, "DROP EXTENSION %s CASCADE is not supported: zproxy cannot drop the objects that depend on it", ext.Name).
					WithDetail("%s", user)
			case used:
				return ch, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop extension %s because other objects depend on it", ext.Name).
					WithDetail("%s", user).WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			case !created:
				return ch, pgerr.New(pgerr.FeatureNotSupported, "extension %q was not created in this database and is built into zproxy: it cannot be dropped", ext.Name)
			}
			ch.DeleteExtensions = append(ch.DeleteExtensions, ext.Name)
		}
		return ch, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	for _, n := range notices {
		s.notice(n)
	}
	if x.Drop {
		return tagResult("DROP EXTENSION"), nil
	}
	return tagResult("CREATE EXTENSION"), nil
}

// checkExtensionOptions checks CREATE EXTENSION's SCHEMA and VERSION
// against the one schema and version zproxy has of ext.
func (s *Session) checkExtensionOptions(snap *catalog.Snapshot, x *ir.Extension, ext pgcatalog.Extension) error {
	if x.Version != "" && x.Version != ext.Version {
		return pgerr.New(pgerr.InvalidParameterValue, "extension %q has no installation script nor update path for version %q", ext.Name, x.Version)
	}
	home := catalog.PublicSchema
	if ext.Namespace == pgcatalog.NamespaceCatalog {
		home = "pg_catalog"
	}
	switch {
	case x.Schema == "" || x.Schema == home:
		return nil
	case !snap.HasSchema(x.Schema) && x.Schema != "pg_catalog":
		return pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", x.Schema)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "extension %q is built into zproxy in schema %s and cannot be created in schema %s", ext.Name, home, x.Schema)
}

// SignalBackend implements pgcatalog.Session with PostgreSQL 15's rules
// (pg_signal_backend() in its signalfuncs.c): only a superuser may signal
// a superuser's session; otherwise the role must have the privileges of
// the target session's role or of pg_signal_backend. The target is looked
// for among this proxy's sessions.
func (p pgSession) SignalBackend(pid int32, terminate bool) (bool, error) {
	c := p.s.engine.cat
	c.mu.Lock()
	var target *Session
	for s, a := range c.sessions {
		if a.pid == pid {
			target = s
			break
		}
	}
	c.mu.Unlock()
	backends := p.s.params.Backends
	remote := target == nil && p.s.engine.remotePID(pid)
	var them string
	var authenticated bool
	switch {
	case remote:
		ps, ok, err := p.s.engine.remoteSession(context.Background(), pid)
		if err != nil {
			return false, storeErr(err)
		}
		if !ok {
			return false, nil
		}
		them, authenticated = ps.User, ps.Authenticated
	case target == nil || backends == nil:
		return false, nil
	default:
		them, authenticated = target.params.User, target.params.Authenticated
	}
	snap, err := p.s.snapshot(context.Background())
	if err != nil {
		return false, storeErr(err)
	}
	me := p.s.currentUser()
	targetSuper := roleIsSuperuser(snap, them, authenticated)
	switch {
	case targetSuper && !p.s.isSuperuser(snap):
		if terminate {
			return false, pgerr.New(pgerr.InsufficientPrivilege, "must be a superuser to terminate superuser process")
		}
		return false, pgerr.New(pgerr.InsufficientPrivilege, "must be a superuser to cancel superuser query")
	case !p.s.isSuperuser(snap) && !snap.IsMemberOf(me, them) && !snap.IsMemberOf(me, catalog.RoleSignalBackend):
		if terminate {
			return false, pgerr.New(pgerr.InsufficientPrivilege, "must be a member of the role whose process is being terminated or member of pg_signal_backend")
		}
		return false, pgerr.New(pgerr.InsufficientPrivilege, "must be a member of the role whose query is being canceled or member of pg_signal_backend")
	}
	if remote {
		ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
		defer cancel()
		found, err := p.s.engine.cfg.Cluster.Signal(ctx, uint32(pid), terminate)
		if err != nil {
			return false, storeErr(err)
		}
		return found, nil
	}
	if target == p.s {
		// PostgreSQL's backend signals itself and stops at once: the
		// statement ends with the signal's error, not with a result.
		if terminate {
			backends.TerminateBackend(uint32(pid))
			return false, &pgerr.Error{Code: pgerr.AdminShutdown, Severity: "FATAL", Message: "terminating connection due to administrator command"}
		}
		return false, pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	if terminate {
		return backends.TerminateBackend(uint32(pid)), nil
	}
	return backends.CancelBackend(uint32(pid)), nil
}

// BackendAlive implements pgcatalog.Session.
func (p pgSession) BackendAlive(pid int32) bool {
	if p.s.engine.remotePID(pid) {
		_, ok, err := p.s.engine.remoteSession(context.Background(), pid)
		return ok || err != nil // unknown counts as alive: keep waiting
	}
	if b := p.s.params.Backends; b != nil {
		return b.BackendAlive(uint32(pid))
	}
	return false
}

// SequenceState implements pgcatalog.Session.
// ExportSnapshot implements pgcatalog.Session: the block's transaction's
// snapshot. Outside a block the statement's snapshot ends with it, as in
// PostgreSQL, so the name it returns is no longer importable.
func (p pgSession) ExportSnapshot(ctx context.Context) (string, error) {
	t, err := p.s.blockTxn(ctx)
	if err != nil {
		return "", err
	}
	if t == nil {
		if t, err = p.s.engine.exec.Begin(ctx, true, nil); err != nil {
			return "", err
		}
		defer t.Rollback()
	}
	return t.ExportSnapshot()
}

func (p pgSession) SequenceState(ctx context.Context, seq *catalog.Sequence) (int64, bool, error) {
	return p.s.engine.exec.SequenceState(ctx, seq)
}

// PreparedStatements implements pgcatalog.Session.
func (p pgSession) PreparedStatements() []pgcatalog.PreparedStatement {
	var out []pgcatalog.PreparedStatement
	if p.s.ext.reg == nil {
		return nil
	}
	for _, ps := range p.s.ext.reg.Statements() {
		out = append(out, pgcatalog.PreparedStatement{Name: ps.Name, Statement: ps.Statement, PrepareTime: ps.PrepareTime,
			ParamTypes: ps.ParamTypes, FromSQL: ps.FromSQL, GenericPlans: ps.GenericPlans, CustomPlans: ps.CustomPlans})
	}
	return out
}

var _ pgcatalog.PartitionSizer = pgSession{}

var _ pgcatalog.InvertedPacker = pgSession{}

// PackInverted implements pgcatalog.InvertedPacker
// (gin_clean_pending_list).
func (p pgSession) PackInverted(ctx context.Context, t *catalog.Table, ix *catalog.Index) (int64, error) {
	n, err := p.s.engine.exec.PackInverted(ctx, t, ix)
	return n, storeErr(err)
}

// PartitionBytes implements pgcatalog.PartitionSizer: the store measures
// the partitions when it can (kv.SizeEstimator: Pebble).
func (p pgSession) PartitionBytes(ctx context.Context, partitions [][]byte) (int64, bool, error) {
	se, ok := p.s.engine.base.(kv.SizeEstimator)
	if !ok {
		return 0, false, nil
	}
	n, err := se.PartitionBytes(ctx, partitions)
	if err != nil {
		return 0, false, storeErr(err)
	}
	return n, true, nil
}
