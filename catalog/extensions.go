package catalog

import (
	"context"
	"fmt"
	"sort"

	"github.com/zproxy/zproxy/kv"
)

// Extensions. zproxy's extensions are built in: their types, functions
// and relations exist in every database whether or not CREATE EXTENSION
// ran. What CREATE EXTENSION records, under extensionPrefix, is that the
// database asked for one, so that the database's catalog says so as
// PostgreSQL's would: a second CREATE EXTENSION is 42710, DROP EXTENSION
// undoes the first, and pg_extension lists the extension as the
// database's own, which pg_dump then dumps (catalog/pgcatalog,
// extensions.go). The records are descriptors like any other, so a
// transaction block's CREATE EXTENSION is undone by its ROLLBACK.
const extensionPrefix = "x/"

// Extension records CREATE EXTENSION of a built-in extension.
type Extension struct {
	// Name is the extension's name, as pg_extension spells it.
	Name string `json:"name"`
	// Owner is the role that created it (pg_extension.extowner), who may
	// drop it.
	Owner string `json:"owner,omitempty"`
}

// Extension returns the record of the named extension's CREATE EXTENSION
// in this database.
func (s *Snapshot) Extension(name string) (*Extension, bool) {
	x, ok := s.Permanent().extensions[name]
	return x, ok
}

// Extensions returns the records of the extensions CREATE EXTENSION
// created in this database, sorted by name.
func (s *Snapshot) Extensions() []*Extension {
	p := s.Permanent()
	out := make([]*Extension, 0, len(p.extensions))
	for _, x := range p.extensions {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (c *Catalog) loadExtensions(ctx context.Context) (map[string]*Extension, error) {
	out := map[string]*Extension{}
	start := []byte(extensionPrefix)
	it := c.rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		var x Extension
		if err := decodeDesc(it.Item(), &x); err != nil {
			return nil, err
		}
		out[x.Name] = &x
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading extensions: %w", err)
	}
	return out, nil
}

func (c *Catalog) extensionOps(ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	for _, x := range ch.PutExtensions {
		op, err := c.putDescriptor(extensionPrefix+x.Name, x)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	for _, name := range ch.DeleteExtensions {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: []byte(extensionPrefix + name)}})
	}
	return ops, nil
}
