package session

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/pebble"
)

// Temporary tables (CREATE TEMP TABLE). A session that creates one gets a
// catalog of its own (catalog.OpenTemp) in the proxy's temporary store, and
// sees the permanent schema with its temporary objects laid over it
// (Session.snapshot). The engine's executor reads and writes through a
// store that sends temporary objects' partitions to the temporary store
// (kv/kvsplit), so the executor, planner and optimizer treat a temporary
// table as any other. DDL on a temporary object changes the session's
// catalog (Session.catalogFor). At the session's end its temporary objects
// are dropped; ON COMMIT DELETE ROWS and ON COMMIT DROP act at the end of
// each transaction (Session.onCommit).

// tempStore is the proxy's store of temporary objects: an ephemeral Pebble
// store (no write-ahead log, no syncs) in a directory of its own under the
// system's temporary directory, opened when the first temporary table is
// created. The directory is named as the executor's spill directories are
// (zproxy-spill-<pid>-<n>), so a proxy that crashed leaves nothing the next
// start does not sweep.
type tempStore struct {
	mu    sync.Mutex
	dir   *spill.Store
	store *pebble.Store
}

// tempStoreCache is the temporary store's block cache: temporary tables
// are a session's scratch space, not worth a large cache.
const tempStoreCache = 8 << 20

// open opens the store if it is not open yet.
func (t *tempStore) open() (*pebble.Store, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.store != nil {
		return t.store, nil
	}
	t.dir = spill.New("")
	dir, err := t.dir.Open()
	if err != nil {
		return nil, err
	}
	st, err := pebble.Open(filepath.Join(dir, "temp"), pebble.Options{Ephemeral: true, CacheSize: tempStoreCache})
	if err != nil {
		_ = t.dir.Close()
		return nil, pgerr.New(pgerr.IOError, "could not open the store of temporary tables: %v", err)
	}
	t.store = st
	return st, nil
}

// close closes the store and removes its directory.
func (t *tempStore) close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.store == nil {
		return nil
	}
	err := errors.Join(t.store.Close(), t.dir.Close())
	t.store = nil
	return err
}

// The temporary store is a kv.Store (and the interfaces the executor asks
// for) that opens itself at first use: requests reach it only for
// temporary partitions, which exist only after a temporary table was
// created, so in practice it is open by then.
var (
	_ kv.Transactional = (*tempStore)(nil)
	_ kv.BulkWriter    = (*tempStore)(nil)
	_ kv.Compacter     = (*tempStore)(nil)
)

// Get implements kv.Store.
func (t *tempStore) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	st, err := t.open()
	if err != nil {
		return nil, err
	}
	return st.Get(ctx, req)
}

// Scan implements kv.Store.
func (t *tempStore) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	st, err := t.open()
	if err != nil {
		return kv.FailedIterator(err)
	}
	return st.Scan(ctx, req)
}

// Write implements kv.Store.
func (t *tempStore) Write(ctx context.Context, b kv.Batch) error {
	st, err := t.open()
	if err != nil {
		return err
	}
	return st.Write(ctx, b)
}

// Capabilities implements kv.Store: an embedded store's, without opening it.
func (t *tempStore) Capabilities() kv.Capabilities {
	return kv.Capabilities{Name: pebble.Name, CheapSeek: true, Exclusive: true, Isolation: kv.IsolationSnapshot, KeepsVersions: true, AttrIDs: true, Serializable: true}
}

// Close implements kv.Store.
func (t *tempStore) Close() error { return t.close() }

// Begin implements kv.Transactional.
func (t *tempStore) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	st, err := t.open()
	if err != nil {
		return nil, err
	}
	return st.Begin(ctx, opts)
}

// NewBulk implements kv.BulkWriter.
func (t *tempStore) NewBulk() kv.Bulk {
	st, err := t.open()
	if err != nil {
		return failedBulk{err}
	}
	return st.NewBulk()
}

// CompactPartitions implements kv.Compacter.
func (t *tempStore) CompactPartitions(ctx context.Context, partitions [][]byte) error {
	st, err := t.open()
	if err != nil {
		return err
	}
	return st.CompactPartitions(ctx, partitions)
}

func (f failedBulk) Add([]kv.Op) error { return f.err }

// failedBulk is a bulk batch of a store that failed to open.
type failedBulk struct{ err error }

func (f failedBulk) Size() int64                              { return 0 }
func (f failedBulk) FirstStored(context.Context) (int, error) { return -1, f.err }
func (f failedBulk) Op(int) (kv.Op, bool)                     { return kv.Op{}, false }
func (f failedBulk) Commit(context.Context, *kv.Stats) error  { return f.err }
func (f failedBulk) Close()                                   {}

// tempCatalogs numbers the sessions' temporary catalogs (and their
// pg_temp_N schemas) within the process.
var tempCatalogs atomic.Uint64

// tempState is a session's temporary objects.
type tempState struct {
	// cat is the session's catalog of temporary objects, nil until its
	// first CREATE TEMP TABLE (its number names pg_temp_N).
	cat *catalog.Catalog
	// permitted is set once the session was found to hold TEMPORARY on
	// its database (catalogForNew), as PostgreSQL checks it once, when it
	// makes the session's temporary schema.
	permitted bool
	// merged is the last schema snapshot handed out, the permanent
	// snapshot main with the temporary one temp laid over it.
	merged, main, temp *catalog.Snapshot
	// actions caches, for the temporary snapshot actionsOf, the tables
	// with an ON COMMIT action: onCommit runs after every statement
	// outside a block, and most sessions' temporary tables have none.
	actionsOf *catalog.Snapshot
	actions   []*catalog.Table
	// created are the temporary tables, views and routines the open transaction
	// block created, in order: ROLLBACK drops them (and ROLLBACK TO a
	// savepoint those created after it), so that creating one is undone
	// as in PostgreSQL.
	created []tempObject
}

// tempObject names a temporary table or view, or a routine of pg_temp
// (fn its OID).
type tempObject struct {
	name string
	view bool
	fn   uint32
	typ  bool // a type of pg_temp (name its key)
	seq  bool // a temporary sequence
}

// noteTempCreate records a temporary object created inside a block.
func (s *Session) noteTempCreate(name string, view bool) {
	if s.txStatus != 'I' {
		s.temp.created = append(s.temp.created, tempObject{name: name, view: view})
	}
}

// errSkipUndo: what undoTempCreates would drop is gone already.
var errSkipUndo = errors.New("nothing to undo")

// undoTempCreates drops the temporary objects the block created after the
// first from, newest first.
func (s *Session) undoTempCreates(ctx context.Context, from int) error {
	c := s.temp.cat
	if c == nil || from >= len(s.temp.created) {
		return nil
	}
	undo := s.temp.created[from:]
	s.temp.created = s.temp.created[:from]
	e := s.engine
	for i := len(undo) - 1; i >= 0; i-- {
		o := undo[i]
		var err error
		switch {
		case o.fn != 0:
			_, err = c.Update(ctx, func(*catalog.Snapshot, uint64) (catalog.Change, error) {
				return catalog.Change{DeleteFunctions: []uint32{o.fn}}, nil
			})
		case o.typ:
			_, err = c.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
				if _, ok := s.UserTypeByKey(o.name); !ok {
					return catalog.Change{}, errSkipUndo
				}
				return catalog.Change{DeleteTypes: []string{o.name}}, nil
			})
			if errors.Is(err, errSkipUndo) {
				err = nil
			}
		case o.view:
			err = e.exec.DropView(ctx, c, &ir.DropView{Names: []string{o.name}, IfExists: true, Cascade: true}, func(*pgerr.Error) {})
		case o.seq:
			err = e.exec.DropSequence(ctx, c, &ir.DropSequence{Names: []string{o.name}, IfExists: true, Cascade: true}, func(*pgerr.Error) {})
		default:
			err = e.exec.DropTable(ctx, c, &ir.DropTable{Names: []string{o.name}, IfExists: true, Cascade: true}, func(*pgerr.Error) {})
		}
		if err != nil {
			return storeErr(err)
		}
	}
	return nil
}

// snapshot is the schema the session's statements bind to: the engine's
// catalog, with the session's temporary objects when it has any.
func (s *Session) snapshot(ctx context.Context) (*catalog.Snapshot, error) {
	main, err := s.mainCatalog().Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return s.withTemp(ctx, main)
}

// mainCatalog is the catalog of permanent objects the session's statements
// see: the open block's once it changed the schema (permCatalog), else the
// engine's.
func (s *Session) mainCatalog() *catalog.Catalog {
	if s.txn != nil {
		if c := s.txn.ChangedSchema(); c != nil {
			return c
		}
	}
	return s.engine.catalog
}

// schemaCurrent is executor.RunOptions.SchemaCurrent: whether the
// permanent table t is as the schema the session's catalog has now, which
// re-reads the store's version marker once its check is
// catalog.SharedStaleness old.
func (s *Session) schemaCurrent(ctx context.Context, t *catalog.Table) (bool, error) {
	snap, err := s.mainCatalog().Snapshot(ctx)
	if err != nil {
		return false, err
	}
	cur, err := snap.Permanent().Table(t.Name)
	return err == nil && !cur.Temp && cur.Revision == t.Revision, nil
}

// latest is snapshot without the staleness a shared store allows
// (catalog.Catalog.Latest).
func (s *Session) latest(ctx context.Context) (*catalog.Snapshot, error) {
	main, err := s.mainCatalog().Latest(ctx)
	if err != nil {
		return nil, err
	}
	return s.withTemp(ctx, main)
}

func (s *Session) withTemp(ctx context.Context, main *catalog.Snapshot) (*catalog.Snapshot, error) {
	ts := &s.temp
	if ts.cat == nil {
		return s.withPath(main), nil
	}
	temp, err := ts.cat.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if ts.merged == nil || ts.main != main || ts.temp != temp {
		ts.merged, ts.main, ts.temp = main.WithTemp(temp), main, temp
	}
	return s.withPath(ts.merged), nil
}

// tempCatalog returns the session's catalog of temporary objects, opening
// it (and the proxy's temporary store) at the first use.
func (s *Session) tempCatalog(ctx context.Context) (*catalog.Catalog, error) {
	if s.temp.cat != nil {
		return s.temp.cat, nil
	}
	if _, err := s.engine.temp.open(); err != nil {
		return nil, err
	}
	num := tempCatalogs.Add(1)
	c, err := catalog.OpenTemp(ctx, s.engine.store, num)
	if err != nil {
		return nil, storeErr(err)
	}
	s.temp.cat = c
	return c, nil
}

// catalogFor is the catalog a DDL statement on the named relation
// changes: the session's temporary catalog when the name resolves to a
// temporary object, else the engine's.
func (s *Session) catalogFor(ctx context.Context, name string) (*catalog.Catalog, error) {
	if s.temp.cat == nil {
		return s.permCatalog(ctx)
	}
	temp, err := s.temp.cat.Snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if temp.HasRelation(name) {
		return s.temp.cat, s.tempChangeAllowed()
	}
	if t, _ := temp.FindIndex(name); t != nil {
		return s.temp.cat, s.tempChangeAllowed()
	}
	return s.permCatalog(ctx)
}

// catalogForNew is the catalog a statement creating an object changes:
// the session's temporary catalog for a temporary object, else the
// permanent one (permCatalog).
func (s *Session) catalogForNew(ctx context.Context, temp bool) (*catalog.Catalog, error) {
	if temp {
		if !s.temp.permitted {
			// As PostgreSQL's InitTempTableNamespace: the session's first
			// temporary object needs TEMPORARY on the database.
			snap, err := s.engine.catalog.Snapshot(ctx)
			if err != nil {
				return nil, storeErr(err)
			}
			if !s.holdsDatabasePrivilege(snap, catalog.PrivTemporary) {
				return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create temporary tables in database \"%s\"", s.params.Database)
			}
			s.temp.permitted = true
		}
		return s.tempCatalog(ctx)
	}
	return s.permCatalog(ctx)
}

// permCatalog is the catalog a statement's changes to permanent objects go
// through: inside a transaction block the block's own
// (executor.Txn.SchemaCatalog), so that they commit with the block and
// ROLLBACK undoes them; else the engine's.
func (s *Session) permCatalog(ctx context.Context) (*catalog.Catalog, error) {
	t, err := s.blockTxn(ctx)
	if err != nil || t == nil {
		return s.engine.catalog, err
	}
	c, err := t.SchemaCatalog(ctx, s.engine.catalog)
	if err != nil {
		return nil, err
	}
	s.blockDDL = true
	return c, nil
}

// keyIn is name as catalog cat keys it, once a statement's catalog is
// chosen (catalogFor, byCatalog): a name qualified by public, which the
// binder keeps so that it binds past a temporary relation of that name
// (catalog.Snapshot.lookupRelation), is public's bare key in the
// permanent catalog, which the executor's changes are keyed by.
func (s *Session) keyIn(cat *catalog.Catalog, name string) string {
	if cat == s.temp.cat {
		return name
	}
	return strings.TrimPrefix(name, catalog.PublicSchema+".")
}

// splitTemp divides relation names into the session's temporary ones and
// the others, for statements that name several (DROP TABLE, TRUNCATE).
func (s *Session) splitTemp(ctx context.Context, names []string) (temp, perm []string, err error) {
	if s.temp.cat == nil {
		return nil, names, nil
	}
	snap, err := s.temp.cat.Snapshot(ctx)
	if err != nil {
		return nil, nil, storeErr(err)
	}
	for _, n := range names {
		if snap.HasRelation(n) {
			temp = append(temp, n)
		} else {
			perm = append(perm, n)
		}
	}
	return temp, perm, nil
}

// byCatalog runs a statement that names several relations (DROP TABLE,
// DROP VIEW) once per catalog: on the session's temporary ones among them,
// then on the others, also when it names none of either, so that IF
// EXISTS and the errors behave as for one statement.
func (s *Session) byCatalog(ctx context.Context, names []string, run func(cat *catalog.Catalog, names []string) error) error {
	temp, perm, err := s.splitTemp(ctx, names)
	if err != nil {
		return err
	}
	if len(temp) > 0 {
		if err := s.tempChangeAllowed(); err != nil {
			return err
		}
		if err := run(s.temp.cat, temp); err != nil {
			return storeErr(err)
		}
	}
	if len(perm) > 0 || len(temp) == 0 {
		cat, err := s.permCatalog(ctx)
		if err != nil {
			return err
		}
		keys := make([]string, len(perm))
		for i, n := range perm {
			keys[i] = s.keyIn(cat, n)
		}
		if err := run(cat, keys); err != nil {
			return storeErr(err)
		}
	}
	return nil
}

// dropTemp drops every temporary object of the session and its catalog:
// the session ended.
func (s *Session) dropTemp(ctx context.Context) error {
	c := s.temp.cat
	if c == nil {
		return nil
	}
	snap, err := c.Snapshot(ctx)
	if err != nil {
		s.temp = tempState{}
		return err
	}
	err = s.dropTempFuncDependents(ctx, snap)
	s.temp = tempState{}
	if err != nil {
		return err
	}
	var names []string
	for _, t := range snap.Tables() {
		names = append(names, t.Name)
	}
	if len(names) > 0 {
		if err := s.engine.exec.DropTable(ctx, c, &ir.DropTable{Names: names, Cascade: true}, func(*pgerr.Error) {}); err != nil {
			return err
		}
	}
	// What DROP TABLE left (sequences no table owns) goes with the rest.
	if cur, err := c.Snapshot(ctx); err == nil {
		if seqs := cur.Sequences(); len(seqs) > 0 {
			names := make([]string, len(seqs))
			for i, q := range seqs {
				names[i] = q.Name
			}
			if err := s.engine.exec.DropSequence(ctx, c, &ir.DropSequence{Names: names, IfExists: true}, func(*pgerr.Error) {}); err != nil {
				return err
			}
		}
	}
	return c.Destroy(ctx)
}

// dropTempFuncDependents drops the permanent views that call a routine
// of the session's pg_temp (temp, its temporary objects): they depend on
// it, as in PostgreSQL, whose end of the session drops them with it.
func (s *Session) dropTempFuncDependents(ctx context.Context, temp *catalog.Snapshot) error {
	fns := temp.AllFunctions()
	if len(fns) == 0 {
		return nil
	}
	main := s.mainCatalog()
	perm, err := main.Snapshot(ctx)
	if err != nil {
		return err
	}
	var drop []string
	for _, v := range perm.Views() {
		if slices.ContainsFunc(fns, func(f *catalog.Function) bool { return slices.Contains(v.TempFuncs, f.OID) }) {
			drop = append(drop, v.Name)
		}
	}
	if len(drop) == 0 {
		return nil
	}
	return s.engine.exec.DropView(ctx, main, &ir.DropView{Names: drop, IfExists: true, Cascade: true}, func(*pgerr.Error) {})
}

// dropTempRoutineDependents deals, before DROP FUNCTION of routines of
// the session's pg_temp, with the permanent views that call them: without
// CASCADE the drop is refused (2BP01), with it they are dropped first, as
// PostgreSQL's dependencies make it.
func (s *Session) dropTempRoutineDependents(ctx context.Context, x *ir.RoutineChange) error {
	temp, err := s.temp.cat.Snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	fns := executor.RoutinesNamed(temp, x)
	if len(fns) == 0 {
		return nil
	}
	main, err := s.permCatalog(ctx)
	if err != nil {
		return err
	}
	perm, err := main.Snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	var drop []string
	for _, fn := range fns {
		for _, v := range perm.Views() {
			if !slices.Contains(v.TempFuncs, fn.OID) || slices.Contains(drop, v.Name) {
				continue
			}
			if !x.Cascade {
				kind := "function"
				if fn.Procedure() {
					kind = "procedure"
				}
				return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop %s %s() because other objects depend on it", kind, fn.Name).
					WithDetail("view %s depends on %s %s()", v.Name, kind, fn.Name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			drop = append(drop, v.Name)
		}
	}
	if len(drop) == 0 {
		return nil
	}
	for _, name := range drop {
		s.notice(pgerr.Notice("drop cascades to view %s", name))
	}
	return storeErr(s.engine.exec.DropView(ctx, main, &ir.DropView{Names: drop, IfExists: true, Cascade: true}, func(*pgerr.Error) {}))
}

// transactionDone runs the ON COMMIT actions after a transaction ended
// (see onCommit); a failure is logged, the transaction having ended.
func (s *Session) transactionDone(ctx context.Context) {
	s.endStatementTxn()
	if s.temp.cat == nil {
		return
	}
	if err := s.onCommit(ctx); err != nil {
		s.engine.cfg.Logger.Warn("running temporary tables' ON COMMIT actions", "err", err)
	}
}

// onCommit runs the temporary tables' ON COMMIT actions at the end of a
// transaction (a block's COMMIT, or a statement outside a block): DELETE
// ROWS empties the table, DROP drops it.
func (s *Session) onCommit(ctx context.Context) error {
	c := s.temp.cat
	if c == nil {
		return nil
	}
	snap, err := c.Snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	if s.temp.actionsOf != snap {
		s.temp.actionsOf, s.temp.actions = snap, nil
		for _, t := range snap.Tables() {
			if t.OnCommit != "" {
				s.temp.actions = append(s.temp.actions, t)
			}
		}
	}
	var drop []string
	var empty []*catalog.Table
	for _, t := range s.temp.actions {
		switch t.OnCommit {
		case "drop":
			drop = append(drop, t.Name)
		case "delete rows":
			empty = append(empty, t)
		}
	}
	e := s.engine
	if len(drop) > 0 {
		if err := e.exec.DropTable(ctx, c, &ir.DropTable{Names: drop, Cascade: true}, s.notice); err != nil {
			return storeErr(err)
		}
	}
	for _, t := range empty {
		if err := e.exec.ClearRows(ctx, t); err != nil {
			return storeErr(err)
		}
	}
	return nil
}

// tempDependents deals, before a DROP of the permanent relations perm (of
// kind "table", "view" or "materialized view"), with the session's
// temporary views that read one of them: PostgreSQL's dependencies span
// both, so without CASCADE the drop is refused (2BP01); with it, it
// returns those views, which dropTempViews drops once the permanent DROP
// has succeeded (were they dropped first, a DROP failing for another
// reason would have lost them).
func (s *Session) tempDependents(ctx context.Context, perm []string, kind string, cascade bool) ([]string, error) {
	if s.temp.cat == nil || len(perm) == 0 {
		return nil, nil
	}
	temp, err := s.temp.cat.Snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if cascade {
		// What the drop cascades to among the permanent views counts too
		// (a temporary view over a view over the dropped table).
		pc, err := s.permCatalog(ctx)
		if err != nil {
			return nil, err
		}
		main, err := pc.Snapshot(ctx)
		if err != nil {
			return nil, storeErr(err)
		}
		for _, name := range slices.Clone(perm) {
			for _, d := range main.DependentsClosure(name) {
				perm = append(perm, d.Name)
			}
		}
	}
	var drop []string
	for _, name := range perm {
		for _, d := range temp.DependentsClosure(name) {
			if !cascade {
				return nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop %s %s because other objects depend on it", kind, name).
					WithDetail("%s %s depends on %s %s", d.Kind(), d.Name, kind, name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
			if !slices.Contains(drop, d.Name) {
				drop = append(drop, d.Name)
			}
		}
	}
	for _, name := range drop {
		s.notice(pgerr.Notice("drop cascades to view %s", name))
	}
	return drop, nil
}

// dropTempViews drops the temporary views tempDependents returned.
func (s *Session) dropTempViews(ctx context.Context, names []string) error {
	if len(names) == 0 {
		return nil
	}
	return storeErr(s.engine.exec.DropView(ctx, s.temp.cat, &ir.DropView{Names: names, IfExists: true, Cascade: true}, func(*pgerr.Error) {}))
}
