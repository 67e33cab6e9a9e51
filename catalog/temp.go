package catalog

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Temporary objects (CREATE TEMP TABLE) belong to one session. Each session
// that creates one gets a catalog of its own (OpenTemp), in a partition of
// the proxy's local store: the engine routes every partition IsTempPartition
// accepts to that store (package kv/kvsplit), so temporary rows, index
// entries, sequence state and descriptors never reach the shared store, and
// a crash of the proxy takes them with it (the local store lives in a
// temporary directory that the next start removes).
//
// A temporary catalog's versions come from one counter per process starting
// at TempVersionBase, so the IDs of temporary objects (ObjectID of those
// versions) never meet a permanent object's, nor another session's, and
// IsTempID tells them apart. Their OIDs (16384 + id*1024 + slot, truncated
// to 32 bits) fall in the upper half of the OID space, above permanent
// objects'.
const TempVersionBase = 1<<40 + 2048

// TempIDBase is the smallest ID of a temporary object.
const TempIDBase = TempVersionBase * MaxObjectsPerChange

var tempVersions atomic.Uint64

func init() { tempVersions.Store(TempVersionBase) }

// NextTempVersion hands out the next version of any temporary catalog of
// this process.
func NextTempVersion() uint64 { return tempVersions.Add(1) }

// IsTempID reports whether an object ID is a temporary object's.
func IsTempID(id uint64) bool { return id >= TempIDBase }

// TempCatalogPrefix starts the partitions of the sessions' temporary
// catalogs; TempBoundsPartition holds temporary Z-order indexes' bounds.
var (
	TempCatalogPrefix   = []byte("C/zproxy-temp/")
	TempBoundsPartition = []byte("C/zproxy-temp-bounds")
)

// IsTempPartition reports whether a store partition holds temporary
// objects: a temporary table's rows, index entries or sequence state, a
// temporary catalog, or temporary Z-order bounds.
func IsTempPartition(p []byte) bool {
	if len(p) >= 9 && (p[0] == rowTag || p[0] == indexTag || p[0] == seqTag) {
		return IsTempID(binary.BigEndian.Uint64(p[1:9]))
	}
	return bytes.HasPrefix(p, TempCatalogPrefix) || bytes.Equal(p, TempBoundsPartition)
}

// OpenTemp opens the temporary catalog numbered id (a session's: unique
// among the live sessions of the process) in store, the local store. It
// starts empty: whatever an earlier session of that number left is removed.
func OpenTemp(ctx context.Context, store kv.Store, id uint64) (*Catalog, error) {
	c := &Catalog{rw: store, partition: binary.BigEndian.AppendUint64(bytes.Clone(TempCatalogPrefix), id), temp: true, tempNum: id, exclusive: true}
	if err := c.Destroy(ctx); err != nil {
		return nil, err
	}
	if _, err := c.Snapshot(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Destroy removes every item of a temporary catalog (its descriptors; the
// objects' data is the caller's to remove first).
func (c *Catalog) Destroy(ctx context.Context) error {
	if !c.temp {
		return fmt.Errorf("catalog: only a temporary catalog can be destroyed")
	}
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition})
	var ops []kv.Op
	for it.Next() {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: bytes.Clone(it.Item().Key.Sort)}})
	}
	err := it.Err()
	it.Close()
	if err != nil {
		return err
	}
	if len(ops) == 0 {
		return nil
	}
	c.mu.Lock()
	c.snap = nil
	c.mu.Unlock()
	return c.rw.Write(ctx, kv.Batch{Ops: ops})
}

// WithTemp returns the schema a session sees: s with the session's
// temporary objects t added, shadowing permanent objects of the same name
// (pg_temp comes first on PostgreSQL's search path). Permanent reaches the
// shadowed ones (a name qualified by schema public). The result is a new
// Snapshot; the caller caches it for the pair.
func (s *Snapshot) WithTemp(t *Snapshot) *Snapshot {
	o := &Snapshot{Version: s.Version, roles: s.roles, types: s.types, schemas: s.schemas, perm: s, tempNum: t.tempNum, memo: newMemo(),
		tables:    make(map[string]*Table, len(s.tables)+len(t.tables)),
		views:     make(map[string]*View, len(s.views)+len(t.views)),
		sequences: make(map[string]*Sequence, len(s.sequences)+len(t.sequences)),
		stats:     make(map[uint64]*TableStats, len(s.stats)+len(t.stats)),
	}
	for _, m := range []*Snapshot{s, t} {
		for k, v := range m.tables {
			o.tables[k] = v
		}
		for k, v := range m.views {
			o.views[k] = v
		}
		for k, v := range m.sequences {
			o.sequences[k] = v
		}
		for k, v := range m.stats {
			o.stats[k] = v
		}
	}
	// The session's routines (CREATE FUNCTION pg_temp.f) join the
	// permanent ones under their keys, "pg_temp.f": the search path never
	// names pg_temp for routines, so they are found qualified alone, as
	// PostgreSQL's FuncnameGetCandidates skips the temporary schema.
	if len(t.funcs) > 0 {
		o.funcs = make(map[string][]*Function, len(s.funcs)+len(t.funcs))
		for _, m := range []*Snapshot{s, t} {
			for k, v := range m.funcs {
				o.funcs[k] = v
			}
		}
	}
	// The session's types (CREATE TYPE pg_temp.mood) join the permanent
	// ones under their keys, "pg_temp.mood"; ResolveType finds them first
	// for an unqualified name, as PostgreSQL searches pg_temp first for
	// types.
	if len(t.types) > 0 {
		o.types = make(map[string]*UserType, len(s.types)+len(t.types))
		for k, v := range s.types {
			o.types[k] = v
		}
		// Copies of the session's, linked to the permanent types they
		// are made of (the snapshots' own stay as they are).
		mine := make(map[string]*UserType, len(t.types))
		for k, v := range t.types {
			c := v.Clone()
			o.types[k], mine[k] = c, c
			if c.Range != nil {
				if o.tempMultiranges == nil {
					o.tempMultiranges = map[string]bool{}
				}
				o.tempMultiranges[c.Range.MultiName] = true
			}
		}
		linkTypesOf(mine, o.types)
	}
	// A temporary table's columns of user-defined types are the
	// permanent schema's types and the session's.
	if len(o.types) > 0 {
		enums := typesByOID(o.types)
		for name, tt := range t.tables {
			o.tables[name] = linkTypes(tt, enums, true)
		}
	}
	// A temporary relation hides every permanent relation of its name,
	// whatever their kinds.
	for name := range t.tables {
		o.hide(s, name, "table")
	}
	for name := range t.sequences {
		o.hide(s, name, "sequence")
	}
	for name := range t.views {
		o.hide(s, name, "view")
	}
	return o
}

// hide removes from o the permanent relations named name of the kinds
// other than the temporary one's.
func (o *Snapshot) hide(perm *Snapshot, name, kind string) {
	if _, ok := perm.tables[name]; ok && kind != "table" {
		delete(o.tables, name)
	}
	if _, ok := perm.views[name]; ok && kind != "view" {
		delete(o.views, name)
	}
	if _, ok := perm.sequences[name]; ok && kind != "sequence" {
		delete(o.sequences, name)
	}
}

// Permanent is the schema without the session's temporary objects: the
// snapshot WithTemp was called on, or s itself.
func (s *Snapshot) Permanent() *Snapshot {
	if s.perm != nil {
		return s.perm
	}
	return s
}

// TempSchema is the number N of the session's schema of temporary objects,
// pg_temp_N, and whether the snapshot has one (a session's snapshot once it
// created a temporary object).
func (s *Snapshot) TempSchema() (uint64, bool) { return s.tempNum, s.tempNum != 0 }

// TempTypeSchema is the schema the session's temporary types are keyed in
// ("pg_temp.mood"), as its routines are.
const TempTypeSchema = "pg_temp"

// TempTypeIn returns the key of a temporary type (of the session's
// pg_temp) that t is, or is made of (an array's element, a domain's base,
// a composite type's attribute, a range's subtype), or "".
func TempTypeIn(t sqltypes.Type) string {
	// name is the key of the type t is; inner what it is made of.
	var name string
	var inner []sqltypes.Type
	switch {
	case t.Domain != nil:
		name, inner = t.Domain.Name, []sqltypes.Type{t.Domain.Base}
	case t.Enum != nil:
		name = t.Enum.Name
	case t.Range != nil:
		name, inner = t.Range.Name, []sqltypes.Type{t.Range.Subtype}
	case t.Composite != nil:
		name = t.Composite.Name
		for _, f := range t.Composite.Fields {
			inner = append(inner, f.Type)
		}
	}
	if sc, _ := SplitName(name); sc == TempTypeSchema {
		return name
	}
	for _, it := range inner {
		if k := TempTypeIn(it); k != "" {
			return k
		}
	}
	return ""
}

// refuseTempTypes refuses a change of the permanent schema that would
// make a permanent object (a table's column, a type) depend on a session's
// temporary type: other sessions could not read it, and it would outlive
// the type. PostgreSQL accepts it and drops the dependent with the
// session's schema.
func refuseTempTypes(ch Change) error {
	for _, t := range ch.Put {
		if t.Temp {
			continue
		}
		for _, c := range t.Columns {
			if k := TempTypeIn(c.Type); k != "" {
				return pgerr.New(pgerr.FeatureNotSupported, "column %q of permanent table %q cannot be of temporary type %s", c.Name, t.Name, sqltypes.QuoteTypeKey(k)).
					WithHint("Create the table as a temporary one, or the type in a permanent schema.")
			}
		}
	}
	for _, f := range ch.PutFunctions {
		if sc, _ := SplitName(f.Name); sc == TempTypeSchema {
			continue // the session's own routine
		}
		types := []sqltypes.Type{f.Result}
		for _, p := range f.Params {
			types = append(types, p.Type)
		}
		for _, t := range types {
			if k := TempTypeIn(t); k != "" {
				return pgerr.New(pgerr.FeatureNotSupported, "permanent routine %s cannot take or return temporary type %s", sqltypes.QuoteKey(f.Name), sqltypes.QuoteTypeKey(k)).
					WithHint("Create the routine in pg_temp too, or the type in a permanent schema.")
			}
		}
	}
	for _, u := range ch.PutTypes {
		if k := TempTypeIn(u.Type()); k != "" && k != u.Name {
			return pgerr.New(pgerr.FeatureNotSupported, "permanent type %s cannot depend on temporary type %s", sqltypes.QuoteKey(u.Name), sqltypes.QuoteTypeKey(k))
		}
	}
	return nil
}
