package session

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvprefix"
	"github.com/zproxy/zproxy/kv/kvsplit"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

// Databases. A store holds any number of databases, listed in its
// registry (catalog.Database, shared by every database's catalog). The
// first keeps the unprefixed layout and is the root engine's; each other
// one is an Engine of its own over its kvprefix view of the store, opened
// at its first session and sharing the root's sessions, statement
// statistics, memory pool and temporary store. A session belongs to one
// database for its life, as in PostgreSQL (\c opens a new connection).

// openDatabases are the engines of the databases other than the first
// that sessions opened, by database ID.
type openDatabases struct {
	mu   sync.Mutex
	open map[uint64]*Engine
}

// closeAll closes every opened database's engine.
func (o *openDatabases) closeAll() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	var errs []error
	for id, e := range o.open {
		errs = append(errs, e.Close())
		delete(o.open, id)
	}
	return errors.Join(errs...)
}

// forget removes database id's engine, returning it (nil if not open).
func (o *openDatabases) forget(id uint64) *Engine {
	o.mu.Lock()
	defer o.mu.Unlock()
	e := o.open[id]
	delete(o.open, id)
	return e
}

// databaseEngine returns the engine of database d, opening it if need be.
func (e *Engine) databaseEngine(ctx context.Context, d *catalog.Database) (*Engine, error) {
	if d == nil || d.ID == catalog.FirstDatabaseID {
		return e.root, nil
	}
	r := e.root
	r.dbs.mu.Lock()
	defer r.dbs.mu.Unlock()
	if c := r.dbs.open[d.ID]; c != nil {
		return c, nil
	}
	base := kvprefix.New(r.cfg.Store, kvprefix.Prefix(d.ID))
	cat, err := catalog.OpenIn(ctx, base, kvprefix.Shared(catalog.CatalogPartition), r.clock)
	if err != nil {
		return nil, err
	}
	cat.SetDatabase(d.ID)
	store := kvsplit.New(base, r.temp, catalog.IsTempPartition)
	c := &Engine{cfg: r.cfg, catalog: cat, exec: executor.New(store), store: store, temp: r.temp, base: base, opts: r.opts,
		cat: r.cat, auto: newAutoAnalyze(r.cfg.AutoAnalyzeNap), stmts: r.stmts, mem: r.mem,
		root: r, dbID: d.ID, dbs: r.dbs, clock: r.clock}
	if err := c.startBackground(ctx); err != nil {
		return nil, err
	}
	r.dbs.open[d.ID] = c
	return c, nil
}

// firstDatabase is the first database as the registry describes it: its
// item, or the engine's defaults when it has none.
func (e *Engine) firstDatabase(snap *catalog.Snapshot) *catalog.Database {
	return e.databases(snap)[0]
}

// databases lists the store's databases, the first one first.
func (e *Engine) databases(snap *catalog.Snapshot) []*catalog.Database {
	return snap.AllDatabases(e.root.cfg.Database)
}

// findDatabase returns the database named name, or nil.
func (e *Engine) findDatabase(snap *catalog.Snapshot, name string) *catalog.Database {
	return snap.FindDatabase(name, e.root.cfg.Database)
}

// templateDatabases are PostgreSQL's template databases, which CREATE
// DATABASE may name as its TEMPLATE: a new zproxy database starts empty,
// as a copy of template0 or template1 does. They cannot be connected to.
var templateDatabases = map[string]bool{"template0": true, "template1": true}

// connect resolves the database a new session's startup packet names
// (the first database when it names none), checking PostgreSQL's
// conditions: it exists (3D000), accepts connections (55000) and is under
// its connection limit (53300, superusers exempt). p.Database becomes its
// name.
func (e *Engine) connect(ctx context.Context, p *wire.SessionParams) (*Engine, *catalog.Database, error) {
	snap, err := e.catalog.Latest(ctx)
	if err != nil {
		return nil, nil, storeErr(err)
	}
	if p.Database == "" {
		p.Database = e.firstDatabase(snap).Name
	}
	d := e.findDatabase(snap, p.Database)
	if d == nil {
		if e.cfg.AnyDatabase {
			return e, e.firstDatabase(snap), nil
		}
		return nil, nil, &pgerr.Error{Code: pgerr.UndefinedDatabase, Severity: "FATAL", Message: fmt.Sprintf("database %q does not exist", p.Database)}
	}
	if !d.AllowConn {
		return nil, nil, &pgerr.Error{Code: pgerr.ObjectNotInPrerequisiteState, Severity: "FATAL", Message: fmt.Sprintf("database %q is not currently accepting connections", d.Name)}
	}
	if !roleIsSuperuser(snap, p.User, p.Authenticated) && snap.DatabasePrivileges(p.User, d, databaseOwner(d))&catalog.PrivConnect == 0 {
		return nil, nil, &pgerr.Error{Code: pgerr.InsufficientPrivilege, Severity: "FATAL", Message: fmt.Sprintf("permission denied for database \"%s\"", d.Name),
			Detail: "User does not have CONNECT privilege."}
	}
	if d.ConnLimit >= 0 && !roleIsSuperuser(snap, p.User, p.Authenticated) && len(e.sessionsIn(d.ID, nil)) >= d.ConnLimit {
		return nil, nil, &pgerr.Error{Code: pgerr.TooManyConnections, Severity: "FATAL", Message: fmt.Sprintf("too many connections for database %q", d.Name)}
	}
	db, err := e.databaseEngine(ctx, d)
	if err != nil {
		return nil, nil, storeErr(err)
	}
	return db, d, nil
}

// sessionsIn returns the process IDs of this proxy's sessions in
// database id, but for except.
func (e *Engine) sessionsIn(id uint64, except *Session) []int32 {
	c := e.root.cat
	c.mu.Lock()
	defer c.mu.Unlock()
	var pids []int32
	for s, a := range c.sessions {
		if s != except && s.engine.dbID == id {
			pids = append(pids, a.pid)
		}
	}
	sort.Slice(pids, func(i, j int) bool { return pids[i] < pids[j] })
	return pids
}

// applySessionDefaults gives a new session the defaults stored for it,
// before the startup packet's, which override them, each later layer
// over the earlier as PostgreSQL's priorities order them: its database's
// (ALTER DATABASE SET), its user's in every database (ALTER ROLE SET),
// then its user's in this database (ALTER ROLE ... IN DATABASE). They are
// what RESET goes back to (resetValue). A setting that no longer applies
// is skipped with a warning in the log, as PostgreSQL does. They were
// checked when stored, by a role allowed to store them, so a
// superuser-only one applies whoever connects, as in PostgreSQL.
func (s *Session) applySessionDefaults(ctx context.Context, d *catalog.Database) {
	layers := []struct {
		what   string
		config []string
	}{{what: "database"}, {what: "role"}, {what: "role in database"}}
	if d != nil {
		for _, n := range slices.Sorted(maps.Keys(d.Settings)) {
			layers[0].config = append(layers[0].config, n+"="+d.Settings[n])
		}
	}
	if snap, err := s.snapshot(ctx); err == nil {
		if r := snap.Role(s.params.User); r != nil {
			layers[1].config = r.Settings
			layers[2].config = r.DatabaseSettings[s.engine.dbID]
		}
	}
	s.trustedDefaults = true
	defer func() { s.trustedDefaults = false }()
	for _, l := range layers {
		for _, item := range l.config {
			n, v, _ := strings.Cut(item, "=")
			if err := s.set(n, v, false); err != nil {
				s.engine.cfg.Logger.Warn("skipping a "+l.what+" setting", "database", s.params.Database, "role", s.params.User, "setting", n, "err", err)
				continue
			}
			if c, ok := s.resolveVar(n); ok {
				if s.connectDefaults == nil {
					s.connectDefaults = map[string]string{}
				}
				s.connectDefaults[c] = s.varValue(c)
			}
		}
	}
}

// runDatabase runs CREATE, DROP and ALTER DATABASE against the store's
// registry of databases, which the root engine's catalog changes.
func (st *statement) runDatabase(ctx context.Context, x *ir.Database, _ *runEnv) (wire.Result, error) {
	s, ds := st.sess, x.Stmt
	switch ds.Action {
	case "create", "drop":
		if s.txStatus != 'I' {
			return nil, s.notInBlock(strings.ToUpper(ds.Action) + " DATABASE")
		}
	default:
		if s.txStatus != 'I' {
			// The registry changes at once, outside the block's
			// transaction, so a ROLLBACK could not undo it.
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER DATABASE cannot run inside a transaction block in zproxy")
		}
	}
	snap, err := s.engine.root.catalog.Latest(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	switch ds.Action {
	case "create":
		return s.createDatabase(ctx, snap, ds)
	case "drop":
		return s.dropDatabase(ctx, snap, ds)
	}
	return s.alterDatabase(ctx, snap, ds)
}

// databaseOptions are CREATE DATABASE's checked options.
type databaseOptions struct {
	owner                 string
	allowConn, template   bool
	connLimit             int
	setAllow, setTemplate bool
	setLimit              bool
	// source is TEMPLATE's database when it is a user database (nil for
	// template0 and template1: a new database starts empty).
	source *catalog.Database
}

// checkDatabaseOptions checks CREATE (create) or ALTER DATABASE's
// options as PostgreSQL does, refusing with 0A000 the values zproxy cannot
// honour (an encoding other than UTF8, a locale other than C, ICU).
func (s *Session) checkDatabaseOptions(snap *catalog.Snapshot, opts []parser.DatabaseOption, create bool) (databaseOptions, error) {
	out := databaseOptions{allowConn: true, connLimit: -1}
	seen := map[string]bool{}
	for _, o := range opts {
		name := o.Name
		if name == "connection_limit" {
			name = "connection limit"
		}
		if seen[name] {
			return out, pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(o.Pos)
		}
		seen[name] = true
		boolean := func() (bool, error) {
			if o.Default {
				return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", o.Name)
			}
			b, ok := parseBool(strings.ToLower(o.Value))
			if !ok {
				return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", o.Name)
			}
			return b, nil
		}
		value := strings.ToLower(o.Value)
		var err error
		switch {
		case name == "allow_connections":
			out.allowConn, err = boolean()
			out.setAllow = true
		case name == "is_template":
			out.template, err = boolean()
			out.setTemplate = true
		case name == "connection limit":
			out.setLimit = true
			if o.Default {
				break
			}
			n, perr := strconv.Atoi(o.Value)
			switch {
			case perr != nil:
				err = pgerr.New(pgerr.SyntaxError, "connection_limit requires an integer value")
			case n < -1:
				err = pgerr.New(pgerr.InvalidParameterValue, "invalid connection limit: %d", n)
			default:
				out.connLimit = n
			}
		case !create:
			err = pgerr.New(pgerr.SyntaxError, "option %q not recognized", o.Name).WithPosition(o.Pos)
		case o.Default:
			// DEFAULT is the template's value, which is zproxy's own.
		case name == "owner":
			if !roleExists(snap, o.Value) {
				err = pgerr.New(pgerr.UndefinedObject, "role %q does not exist", o.Value)
			}
			out.owner = o.Value
		case name == "template":
			switch {
			case templateDatabases[o.Value]:
			case s.engine.findDatabase(snap, o.Value) != nil:
				out.source = s.engine.findDatabase(snap, o.Value)
				if out.source.ID == catalog.FirstDatabaseID {
					err = pgerr.New(pgerr.FeatureNotSupported, "CREATE DATABASE with TEMPLATE %q is not supported", o.Value).
						WithDetail("The first database of a store shares its key space with what all databases share (roles, the registry of databases); copying it is not supported.")
				}
			default:
				err = pgerr.New(pgerr.UndefinedDatabase, "template database %q does not exist", o.Value)
			}
		case name == "encoding":
			err = checkEncoding(o.Value)
		case name == "locale" || name == "lc_collate" || name == "lc_ctype":
			if value != "c" && value != "posix" {
				err = pgerr.New(pgerr.FeatureNotSupported, "%s %q is not supported", strings.ToUpper(name), o.Value).
					WithDetail("zproxy databases use the C locale: text sorts by its bytes.")
			}
		case name == "locale_provider":
			switch value {
			case "libc":
			case "icu":
				err = pgerr.New(pgerr.FeatureNotSupported, "ICU locale provider is not supported")
			default:
				err = pgerr.New(pgerr.InvalidObjectDefinition, "unrecognized locale provider: %s", o.Value)
			}
		case name == "icu_locale" || name == "collation_version" || name == "oid" || name == "location":
			err = pgerr.New(pgerr.FeatureNotSupported, "CREATE DATABASE option %s is not supported", strings.ToUpper(name)).WithPosition(o.Pos)
		case name == "strategy":
			if value != "wal_log" && value != "file_copy" {
				err = pgerr.New(pgerr.InvalidParameterValue, "invalid create database strategy %q", o.Value).
					WithHint("Valid strategies are \"wal_log\" and \"file_copy\".")
			}
		case name == "tablespace":
			if value != "pg_default" {
				err = pgerr.New(pgerr.UndefinedObject, "tablespace %q does not exist", o.Value)
			}
		default:
			err = pgerr.New(pgerr.SyntaxError, "option %q not recognized", o.Name).WithPosition(o.Pos)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// checkEncoding accepts UTF8 in PostgreSQL's spellings (and its number,
// 6); a known other encoding is refused with 0A000, an unknown name with
// PostgreSQL's 42704.
func checkEncoding(v string) error {
	id := builtins.EncodingID(v)
	if n, err := strconv.Atoi(v); err == nil {
		id = int64(n) // PostgreSQL also takes an encoding's number
		if builtins.EncodingName(id) == "" {
			return pgerr.New(pgerr.UndefinedObject, "%d is not a valid encoding code", n)
		}
	}
	if builtins.EncodingName(id) == "UTF8" {
		return nil
	}
	if id >= 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "encoding %q is not supported", v).
			WithDetail("zproxy stores text as UTF-8: a database's encoding is UTF8.")
	}
	return pgerr.New(pgerr.UndefinedObject, "%s is not a valid encoding name", v)
}

// mayManage reports whether the current user may drop or alter d: a
// superuser or its owner (the bootstrap superuser owns a first database
// without an owner).
func (s *Session) mayManage(snap *catalog.Snapshot, d *catalog.Database) bool {
	return s.isSuperuser(snap) || d.Owner != "" && d.Owner == s.currentUser()
}

func (s *Session) createDatabase(ctx context.Context, snap *catalog.Snapshot, ds *parser.DatabaseStatement) (wire.Result, error) {
	if !s.isSuperuser(snap) {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create database")
	}
	o, err := s.checkDatabaseOptions(snap, ds.Options, true)
	if err != nil {
		return nil, err
	}
	owner := o.owner
	if owner == "" {
		owner = s.currentUser()
	}
	exists := func(snap *catalog.Snapshot) error {
		if templateDatabases[ds.Name] || s.engine.findDatabase(snap, ds.Name) != nil {
			return pgerr.New(pgerr.DuplicateDatabase, "database %q already exists", ds.Name)
		}
		return nil
	}
	var id uint64
	if o.source != nil {
		if err := exists(snap); err != nil {
			return nil, err
		}
		if id, err = s.copyDatabase(ctx, o.source); err != nil {
			return nil, err
		}
	}
	// The registry item goes last: a copy is invisible until it is
	// complete, and a crash before leaves only unreachable items.
	_, err = s.engine.root.catalog.Update(ctx, func(snap *catalog.Snapshot, v uint64) (catalog.Change, error) {
		if err := exists(snap); err != nil {
			return catalog.Change{}, err
		}
		d := &catalog.Database{ID: id, Name: ds.Name, Owner: owner, AllowConn: o.allowConn, IsTemplate: o.template, ConnLimit: o.connLimit}
		if o.source == nil {
			d.ID = catalog.ObjectID(v, 0)
		}
		return catalog.Change{PutDatabases: []*catalog.Database{d}}, nil
	})
	if err != nil {
		if o.source != nil {
			s.discardCopy(id)
		}
		return nil, storeErr(err)
	}
	return tagResult("CREATE DATABASE"), nil
}

// copyDatabase copies database src's items (catalog and data: everything
// under its prefix) under the prefix of a new database ID, which it
// returns; the caller publishes the registry item. The ID is reserved by
// a catalog change of its own (an empty one: only its version marker),
// so no other object or database ever has it. As PostgreSQL, it fails
// with 55006 while another session is in src, and new sessions of src
// wait until the copy ends.
func (s *Session) copyDatabase(ctx context.Context, src *catalog.Database) (uint64, error) {
	done := s.engine.cat.startCopy(src.ID)
	defer done()
	if err := s.evictDatabase(src, false); err != nil {
		if e, ok := err.(*pgerr.Error); ok && e.Code == pgerr.ObjectInUse {
			return 0, pgerr.New(pgerr.ObjectInUse, "source database %q is being accessed by other users", src.Name).WithDetail("%s", e.Detail)
		}
		return 0, err
	}
	var id uint64
	if _, err := s.engine.root.catalog.Update(ctx, func(_ *catalog.Snapshot, v uint64) (catalog.Change, error) {
		id = catalog.ObjectID(v, 0)
		return catalog.Change{}, nil
	}); err != nil {
		return 0, storeErr(err)
	}
	if _, err := kv.CopyPrefix(ctx, s.engine.root.cfg.Store, kvprefix.Prefix(src.ID), kvprefix.Prefix(id)); err != nil {
		s.discardCopy(id)
		return 0, storeErr(err)
	}
	return id, nil
}

// discardCopy deletes what a failed copy wrote under database id's
// prefix (a failure leaves unreachable items, as a crash would).
func (s *Session) discardCopy(id uint64) {
	if pd, ok := s.engine.root.cfg.Store.(kv.PrefixDeleter); ok {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pd.DeletePartitionPrefix(ctx, kvprefix.Prefix(id)); err != nil {
			s.engine.cfg.Logger.Warn("deleting a failed database copy", "id", id, "err", err)
		}
	}
}

// dropDatabase drops a database: its registry item goes first, so no new
// session opens it, then its engine, then its items (the range under its
// prefix: kv.PrefixDeleter).
func (s *Session) dropDatabase(ctx context.Context, snap *catalog.Snapshot, ds *parser.DatabaseStatement) (wire.Result, error) {
	d := s.engine.findDatabase(snap, ds.Name)
	if d == nil {
		if ds.MissingOK {
			s.notice(pgerr.Notice("database %q does not exist, skipping", ds.Name))
			return tagResult("DROP DATABASE"), nil
		}
		return nil, pgerr.New(pgerr.UndefinedDatabase, "database %q does not exist", ds.Name)
	}
	switch {
	case !s.mayManage(snap, d):
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of database %s", d.Name)
	case d.IsTemplate:
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot drop a template database")
	case d.ID == s.engine.dbID:
		return nil, pgerr.New(pgerr.ObjectInUse, "cannot drop the currently open database")
	case d.ID == catalog.FirstDatabaseID:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "the first database of a store cannot be dropped").
			WithDetail("Its data shares the store's unprefixed key space with what all databases share (roles, the registry of databases).")
	}
	if err := s.evictDatabase(d, ds.Force); err != nil {
		return nil, err
	}
	_, err := s.engine.root.catalog.Update(ctx, func(snap *catalog.Snapshot, v uint64) (catalog.Change, error) {
		if snap.DatabaseByID(d.ID) == nil {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedDatabase, "database %q does not exist", ds.Name)
		}
		return catalog.Change{DeleteDatabases: []uint64{d.ID}}, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	if c := s.engine.root.dbs.forget(d.ID); c != nil {
		if err := c.Close(); err != nil {
			s.engine.cfg.Logger.Warn("closing a dropped database", "database", d.Name, "err", err)
		}
	}
	pd, ok := s.engine.root.cfg.Store.(kv.PrefixDeleter)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP DATABASE is not supported by the %s store", s.engine.root.cfg.Store.Capabilities().Name)
	}
	if err := pd.DeletePartitionPrefix(ctx, kvprefix.Prefix(d.ID)); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("DROP DATABASE"), nil
}

// evictDatabase makes sure no other session of this proxy is in d: with
// force it first terminates them (with pg_terminate_backend's privilege
// rules). As PostgreSQL's CountOtherDBBackends, it waits up to 5 seconds
// for the sessions to end (a client that just closed its connection may
// not be gone yet) before failing with 55006.
func (s *Session) evictDatabase(d *catalog.Database, force bool) error {
	pids := s.engine.sessionsIn(d.ID, s)
	if len(pids) == 0 {
		return nil
	}
	if force {
		for _, pid := range pids {
			if _, err := (pgSession{s}).SignalBackend(pid, true); err != nil {
				return err
			}
		}
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if pids = s.engine.sessionsIn(d.ID, s); len(pids) == 0 {
			return nil
		}
	}
	detail := "There is 1 other session using the database."
	if len(pids) > 1 {
		detail = fmt.Sprintf("There are %d other sessions using the database.", len(pids))
	}
	return pgerr.New(pgerr.ObjectInUse, "database %q is being accessed by other users", d.Name).WithDetail("%s", detail)
}

func (s *Session) alterDatabase(ctx context.Context, snap *catalog.Snapshot, ds *parser.DatabaseStatement) (wire.Result, error) {
	d := s.engine.findDatabase(snap, ds.Name)
	if d == nil {
		return nil, pgerr.New(pgerr.UndefinedDatabase, "database %q does not exist", ds.Name)
	}
	if !s.mayManage(snap, d) {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of database %s", d.Name)
	}
	nd := d.Clone()
	switch ds.Action {
	case "rename":
		switch {
		case d.ID == s.engine.dbID:
			return nil, pgerr.New(pgerr.FeatureNotSupported, "current database cannot be renamed")
		case templateDatabases[ds.NewName] || s.engine.findDatabase(snap, ds.NewName) != nil:
			return nil, pgerr.New(pgerr.DuplicateDatabase, "database %q already exists", ds.NewName)
		}
		if err := s.evictDatabase(d, false); err != nil {
			return nil, err
		}
		nd.Name = ds.NewName
	case "owner":
		owner := ds.Owner.Name
		if ds.Owner.Current {
			owner = s.currentUser()
		}
		if !roleExists(snap, owner) {
			return nil, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", owner)
		}
		nd.Owner = owner
	case "set":
		n, err := s.checkSetting(ds.Param, ds.Value)
		if err != nil {
			return nil, err
		}
		// Under PostgreSQL's spelling, as pg_db_role_setting shows it
		// (stores written before kept the canonical name: both go).
		delete(nd.Settings, n)
		nd.Settings[storedVarName(n)] = ds.Value
	case "reset":
		if ds.Param == "all" {
			nd.Settings = nil
		} else if n, ok := s.resolveVar(ds.Param); ok {
			delete(nd.Settings, n)
			delete(nd.Settings, storedVarName(n))
		} else {
			delete(nd.Settings, ds.Param)
		}
	case "options":
		o, err := s.checkDatabaseOptions(snap, ds.Options, false)
		if err != nil {
			return nil, err
		}
		if o.setAllow {
			nd.AllowConn = o.allowConn
		}
		if o.setTemplate {
			nd.IsTemplate = o.template
		}
		if o.setLimit {
			nd.ConnLimit = o.connLimit
		}
	}
	_, err := s.engine.root.catalog.Update(ctx, func(snap *catalog.Snapshot, v uint64) (catalog.Change, error) {
		if nd.Name != d.Name {
			if other := s.engine.findDatabase(snap, nd.Name); other != nil && other.ID != nd.ID {
				return catalog.Change{}, pgerr.New(pgerr.DuplicateDatabase, "database %q already exists", nd.Name)
			}
		}
		return catalog.Change{PutDatabases: []*catalog.Database{nd}}, nil
	})
	if err != nil {
		return nil, storeErr(err)
	}
	return tagResult("ALTER DATABASE"), nil
}

// checkSetting checks that value is a valid value of run-time parameter
// name, as ALTER DATABASE SET does before storing it, and returns the
// parameter's canonical name. The session's own value is left as it was.
func (s *Session) checkSetting(name, value string) (string, error) {
	n, ok := s.resolveVar(name)
	if !ok || s.isCustomVar(n) {
		// A custom parameter's value is any string: it is checked by
		// name, and defined in a session only as the session applies it.
		// As in PostgreSQL, only a superuser (or a role granted SET on
		// it) may store one: it might later turn out to be an
		// extension's superuser-only parameter.
		c, err := checkCustomVar(name)
		if err != nil {
			return "", err
		}
		if !s.superuserNow() && !s.mayGrantedSet(c, name) {
			return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", c)
		}
		return c, nil
	}
	before := s.varValue(n)
	if err := s.setVar(name, value, false); err != nil {
		return "", err
	}
	return n, s.restoreVar(n, before)
}

var _ pgcatalog.DatabaseLister = pgSession{}

// Databases implements pgcatalog.DatabaseLister: the store's databases as
// the session's snapshot of the registry has them. Under
// Config.AnyDatabase a session that asked for a name the store lacks is
// in the first database under that name, and sees it so.
func (p pgSession) Databases() []pgcatalog.DatabaseInfo {
	s := p.s
	snap, err := s.engine.root.catalog.Snapshot(context.Background())
	if err != nil {
		return nil
	}
	var out []pgcatalog.DatabaseInfo
	for _, d := range s.engine.databases(snap) {
		info := pgcatalog.DatabaseInfo{OID: pgcatalog.DatabaseOID, Name: d.Name, Owner: d.Owner, IsTemplate: d.IsTemplate, AllowConn: d.AllowConn, ConnLimit: d.ConnLimit, Comment: d.Comment,
			ID: d.ID, Settings: d.Settings,
			ACL: d.ACLItems(databaseOwner(d)), Privileges: func(role string) catalog.Privilege { return snap.DatabasePrivileges(role, d, databaseOwner(d)) }}
		if d.ID != catalog.FirstDatabaseID {
			info.OID = pgcatalog.ObjectOID(d.ID, 0)
		} else if s.engine.dbID == d.ID && s.params.Database != "" {
			info.Name = s.params.Database
		}
		out = append(out, info)
	}
	return out
}
