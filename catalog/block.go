package catalog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
)

// Schema changes inside a transaction block.
//
// PostgreSQL's DDL is transactional: a block's CREATE, ALTER and DROP are
// seen by no other session before its COMMIT and are undone by ROLLBACK. A
// block therefore changes the schema through a catalog of its own (Block)
// that reads and writes the descriptors through the block's kv transaction:
// its snapshot is the committed schema as of the transaction's snapshot with
// the block's own changes applied, and its changes are buffered writes that
// commit with the block's rows, all or none. A savepoint rolled back to
// takes the changes made after it with it (Forget drops the cached view).
//
// Versions. Every change needs a version number no other change has: its new
// objects' IDs (ObjectID) and its descriptors' revisions come from it. A
// block's change claims one at once, outside the transaction, by writing a
// version marker of kind claim; other proxies see a change that changed
// nothing, and the IDs stay unique whatever becomes of the block. A crash
// leaves nothing but such markers.
//
// COMMIT. The block's changes were computed on the schema as of its
// snapshot, so Seal, just before the commit, checks that no other schema
// change committed since then touched what the block depends on: the
// objects it changed, the tables they reference, the tables it wrote rows
// of, and the relation names it took (every marker lists what its change
// touched; changes of statistics only and other blocks' claims do not
// count, and neither do changes of other objects, so concurrent migrations
// of different tables both commit). It then adds to the transaction the
// marker of a new version, so that every proxy reloads the schema when the
// block commits. Within one process nothing else writes a version marker
// from the check until the commit is decided (Clock.markers), so an
// automatic ANALYZE or another session's change waits rather than taking
// the block's version. A change through another process that commits in
// between takes the same version, and the first committer wins: the block
// fails with 40001, as a block that meets a conflicting change does at the
// check.

// blockState is what a transaction block's catalog (Block) adds to a
// Catalog.
type blockState struct {
	// base is the store's catalog, where versions are claimed and
	// concurrent changes looked for.
	base *Catalog
	// from is the newest version in the block's view: the schema as of
	// the transaction's snapshot.
	from uint64
	// snap is the block's view, nil until loaded again after a change or a
	// rollback to a savepoint.
	snap *Snapshot
	// claimed are the versions the block's changes took.
	claimed map[uint64]bool
	// objects are what the block's changes touched (changedObjects).
	objects map[string]bool
}

// The kinds of version markers (markerKindAttr); a marker without one
// records a change of the schema.
const (
	// markerObjectsAttr lists what the change touched (changedObjects),
	// one per line.
	markerObjectsAttr = "objects"
	markerKindAttr    = "kind"
	// markerClaim: a version a block's change took; what it changed
	// becomes visible with the block's COMMIT, under a marker of its own.
	markerClaim = "claim"
	// markerStats: a change of statistics only (ANALYZE).
	markerStats = "stats"
)

// versionMarker is the write that claims version v for change ch.
func versionMarker(partition []byte, v uint64, kind string, objects []string) kv.Op {
	op := kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: partition, Sort: versionKey(v)}, Cond: kv.CondNotExists}
	if kind != "" {
		op.Attrs = append(op.Attrs, kv.Attr{Name: markerKindAttr, Kind: kv.AttrString, S: kind})
	}
	if len(objects) > 0 {
		op.Attrs = append(op.Attrs, kv.Attr{Name: markerObjectsAttr, Kind: kv.AttrString, S: strings.Join(objects, "\n")})
	}
	return op
}

// namePrefix marks a relation or type name among a change's objects: two
// changes that take one name conflict even when they write different
// descriptors (a table and an index of another table, say).
const namePrefix = "n/"

// changedObjects lists what a change touches: the descriptors its ops
// write, and the names of the relations, indexes and types it puts.
func changedObjects(ch Change, ops []kv.Op) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, op := range ops {
		add(string(op.Key.Sort))
	}
	for _, t := range ch.Put {
		add(namePrefix + t.Name)
		for _, ix := range t.Indexes {
			add(namePrefix + ix.Name)
		}
	}
	for _, v := range ch.PutViews {
		add(namePrefix + v.Name)
	}
	for _, q := range ch.PutSequences {
		add(namePrefix + q.Name)
	}
	for _, y := range ch.PutTypes {
		add(namePrefix + y.Name)
	}
	for _, f := range ch.PutFunctions {
		add(namePrefix + "f:" + f.Name) // two overloads created at once may collide
	}
	for _, sc := range ch.PutSchemas {
		add(namePrefix + "h:" + sc.Name)
	}
	for _, x := range ch.PutExtensions {
		add(namePrefix + "x:" + x.Name)
	}
	for _, o := range ch.PutOperators {
		add(namePrefix + "o:" + o.Name + "(" + strconv.FormatUint(uint64(o.Left.OID()), 10) + "," + strconv.FormatUint(uint64(o.Right.OID()), 10) + ")")
	}
	for _, k := range ch.PutCasts {
		add(namePrefix + "c:" + strconv.FormatUint(uint64(k.Source.OID()), 10) + "," + strconv.FormatUint(uint64(k.Target.OID()), 10))
	}
	return out
}

// markerKind is the kind of change ch records (see versionMarker).
func markerKind(ch Change) string {
	if len(ch.Put)+len(ch.Delete)+len(ch.PutViews)+len(ch.DeleteViews)+len(ch.PutSequences)+len(ch.DeleteSequences)+
		len(ch.PutRoles)+len(ch.DeleteRoles)+len(ch.PutTypes)+len(ch.DeleteTypes)+len(ch.PutFunctions)+len(ch.DeleteFunctions)+
		len(ch.PutSchemas)+len(ch.DeleteSchemas)+len(ch.PutOperators)+len(ch.DeleteOperators)+len(ch.PutCasts)+len(ch.DeleteCasts)+
		len(ch.PutDefaultACLs)+len(ch.DeleteDefaultACLs)+len(ch.PutExtensions)+len(ch.DeleteExtensions) == 0 &&
		len(ch.PutStats)+len(ch.DeleteStats) > 0 {
		return markerStats
	}
	return ""
}

// Block returns the catalog a transaction block changes the schema
// through: rw is the block's kv transaction. It fails with 40001 if the
// schema changed since the transaction's snapshot (the block would change
// a schema that is no longer the current one).
func (c *Catalog) Block(ctx context.Context, rw kv.ReadWriter) (*Catalog, error) {
	if c.block != nil || c.temp {
		return nil, fmt.Errorf("catalog: a block's catalog must be made from the store's")
	}
	b := &Catalog{rw: rw, partition: c.partition, shared: c.shared, objTag: c.objTag, exclusive: true, block: &blockState{base: c, claimed: map[uint64]bool{}, objects: map[string]bool{}}}
	// The version of the schema the transaction sees. A store that keeps
	// versions shows the transaction the schema as of its snapshot, which a
	// change may have replaced since: changesSince below fails the block
	// then. A store that does not (DynamoDB) shows the newest schema, and
	// the markers are read outside the transaction: the claims the block
	// adds to their range would otherwise fail the transaction's read
	// validation.
	r := kv.ReadWriter(c.rw)
	if c.keepsVersions {
		r = rw
	}
	from, err := latestVersionIn(ctx, r, c.sharedPartition())
	if err != nil {
		return nil, err
	}
	b.block.from = from
	return b, nil
}

// viewVersion is the version of the schema c shows: the newest, or a
// block's (which never reads the markers through its transaction).
func (c *Catalog) viewVersion(ctx context.Context) (uint64, error) {
	if c.block != nil {
		return c.block.from, nil
	}
	return c.latestVersion(ctx)
}

// InBlock reports whether c is a transaction block's catalog.
func (c *Catalog) InBlock() bool { return c.block != nil }

// Changed reports whether a block's catalog made a change.
func (c *Catalog) Changed() bool { return c != nil && c.block != nil && len(c.block.claimed) > 0 }

// CreatedInBlock reports whether the object with the given ID was created
// by the block, so no other session can see it yet.
func (c *Catalog) CreatedInBlock(id uint64) bool {
	return c.block != nil && c.block.claimed[id/MaxObjectsPerChange]
}

// Forget drops a block's cached view: a rollback to a savepoint may have
// undone some of its changes.
func (c *Catalog) Forget() {
	if c.block == nil {
		return
	}
	c.mu.Lock()
	c.block.snap = nil
	c.mu.Unlock()
}

// blockSnapshot is Snapshot of a block's catalog: the committed schema as
// of the transaction's snapshot with the block's changes.
func (c *Catalog) blockSnapshot(ctx context.Context) (*Snapshot, error) {
	c.mu.Lock()
	s := c.block.snap
	c.mu.Unlock()
	if s != nil {
		return s, nil
	}
	s, err := c.load(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.markPendingLabels(s)
	c.block.snap = s
	return s, nil
}

// markPendingLabels marks the enum labels the block's own ALTER TYPE ...
// ADD VALUE added (sqltypes.EnumLabel.Pending) in its freshly loaded
// snapshot s, which no other catalog shares.
func (c *Catalog) markPendingLabels(s *Snapshot) {
	for _, u := range s.types {
		if u.Enum == nil {
			continue
		}
		for i, l := range u.Enum.Labels {
			if l.Added != 0 && c.block.claimed[l.Added] {
				u.Enum.Labels[i].Pending = true
			}
		}
	}
}

// blockUpdate is Update of a block's catalog: the change is computed on
// the block's view and buffered in its transaction, under a version claimed
// in the store.
func (c *Catalog) blockUpdate(ctx context.Context, fn func(s *Snapshot, newVersion uint64) (Change, error)) (*Snapshot, error) {
	snap, err := c.blockSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	next, err := c.block.base.claimVersion(ctx)
	if err != nil {
		return nil, err
	}
	ch, err := fn(snap, next)
	if err != nil {
		return nil, err
	}
	ch = snap.WithDefaultACLs(ch)
	ops, err := c.changeOps(snap, ch, next)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.block.claimed[next] = true
	for _, o := range changedObjects(ch, ops) {
		c.block.objects[o] = true
	}
	c.block.snap = nil
	c.mu.Unlock()
	if len(ops) > 0 {
		if err := c.rw.Write(ctx, kv.Batch{Ops: ops, Atomic: true}); err != nil {
			return nil, fmt.Errorf("catalog: writing change: %w", err)
		}
	}
	return c.blockSnapshot(ctx)
}

// claimVersion takes the next version for a block's change (see Block).
func (c *Catalog) claimVersion(ctx context.Context) (uint64, error) {
	for attempt := 0; attempt < 20; attempt++ {
		v, err := c.latestVersion(ctx)
		if err != nil {
			return 0, err
		}
		unlock := c.lockMarkers()
		err = c.rw.Write(ctx, kv.Batch{Ops: []kv.Op{versionMarker(c.sharedPartition(), v+1, markerClaim, nil)}, Atomic: true})
		unlock()
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("catalog: claiming a version: %w", err)
		}
		return v + 1, nil
	}
	return 0, pgerr.Wrap(ErrConflict, pgerr.SerializationFailure, "schema change conflicted with concurrent changes")
}

// Seal readies a block's changes for the block's COMMIT (see Block): it
// fails with 40001 if a change of what the block depends on committed since
// the block's snapshot (wrote names the tables whose rows the block
// wrote), and adds the marker of a new version to the transaction. A block
// that changed nothing needs no seal.
//
// On success the caller holds the process's lock of version markers
// (Clock.markers) and must call release once the commit is decided,
// whatever became of it; release is never nil.
func (c *Catalog) Seal(ctx context.Context, wrote []string) (release func(), err error) {
	if !c.Changed() {
		return func() {}, nil
	}
	deps, err := c.dependencies(ctx, wrote)
	if err != nil {
		return nil, err
	}
	unlock := c.block.base.lockMarkers()
	defer func() {
		if err != nil {
			unlock()
		}
	}()
	latest, err := c.block.base.changesSince(ctx, c.block.from, deps)
	if err != nil {
		return nil, err
	}
	objects := make([]string, 0, len(c.block.objects))
	for o := range c.block.objects {
		objects = append(objects, o)
	}
	sort.Strings(objects)
	marker := versionMarker(c.sharedPartition(), latest+1, "", c.tagged(objects))
	// Read the marker through the transaction first: a store that checks
	// each written key against the version it read (DynamoDB) then makes
	// the commit conditional on the marker still not existing, whatever
	// the transaction's snapshot is by then.
	if _, err := c.rw.Get(ctx, kv.GetRequest{Keys: []kv.Key{marker.Key}, Consistent: true}); err != nil {
		return nil, err
	}
	if err := c.rw.Write(ctx, kv.Batch{Ops: []kv.Op{marker}, Atomic: true}); err != nil {
		return nil, err
	}
	return unlock, nil
}

// dependencies is what a block's changes depend on (see Block): the
// objects they touched, the tables the block's tables reference and its
// views read, and the tables in wrote.
func (c *Catalog) dependencies(ctx context.Context, wrote []string) (map[string]bool, error) {
	snap, err := c.blockSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	deps := make(map[string]bool, len(c.block.objects)+len(wrote))
	for o := range c.block.objects {
		deps[o] = true
		switch {
		case strings.HasPrefix(o, tablePrefix):
			if t, err := snap.Table(o[len(tablePrefix):]); err == nil {
				for _, fk := range t.ForeignKeys {
					deps[tablePrefix+fk.RefTable] = true
				}
			}
		case strings.HasPrefix(o, viewPrefix):
			if v, ok := snap.StoredView(o[len(viewPrefix):]); ok {
				for _, d := range v.Depends {
					deps[tablePrefix+d], deps[viewPrefix+d] = true, true
				}
			}
		}
	}
	for _, t := range wrote {
		deps[tablePrefix+t] = true
	}
	return deps, nil
}

// changesSince returns the newest version, failing with 40001 if a change
// of the schema (not a block's claim, not statistics) that touched one of
// deps committed after version from. A marker that does not say what its
// change touched conflicts with everything.
func (c *Catalog) changesSince(ctx context.Context, from uint64, deps map[string]bool) (uint64, error) {
	start := versionKey(from + 1)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.sharedPartition(), Start: start, End: kv.PrefixEnd([]byte(versionPrefix)), Consistent: true})
	defer it.Close()
	latest := from
	for it.Next() {
		item := it.Item()
		latest = binary.BigEndian.Uint64(item.Key.Sort[len(versionPrefix):])
		kind, objects, listed := "", "", false
		for _, a := range item.Attrs {
			switch a.Name {
			case markerKindAttr:
				kind = a.S
			case markerObjectsAttr:
				objects, listed = a.S, true
			}
		}
		if kind == markerClaim || kind == markerStats {
			continue
		}
		conflict := !listed
		for _, o := range strings.Split(objects, "\n") {
			if own, ok := c.ownObject(o); ok {
				conflict = conflict || deps[own]
			}
		}
		if conflict {
			return 0, pgerr.New(pgerr.SerializationFailure, "could not serialize access: the schema changed during the transaction").
				WithHint("Retry the transaction.")
		}
	}
	if err := it.Err(); err != nil {
		return 0, fmt.Errorf("catalog: reading versions: %w", err)
	}
	return latest, nil
}

// Refresh re-reads the schema if it changed: a block's COMMIT changed it
// behind the store's catalog, which on an exclusive store would otherwise
// keep its cached snapshot.
func (c *Catalog) Refresh(ctx context.Context) error {
	_, err := c.refresh(ctx)
	return err
}
