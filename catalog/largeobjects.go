package catalog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/kv"
)

// Large objects (ARCHITECTURE.md, "Large objects") are stored as
// PostgreSQL's pg_largeobject_metadata and pg_largeobject hold them:
//
//	metadata: partition 'L' ‖ 0 (8 bytes) ‖ 0 (2 bytes)
//	          sort      oid (4 bytes BE); attributes owner, acl
//	page:     partition 'L' ‖ oid (8 bytes BE) ‖ 0 (2 bytes)
//	          sort      pageno (4 bytes BE); attribute data
//
// A page holds the bytes [pageno·LOBlockSize, (pageno+1)·LOBlockSize) of
// the object; a page never written (a hole left by a seek past the end)
// is absent and reads as zeros, as in PostgreSQL. Every item is read and
// written through the transaction of the statement, so large objects are
// transactional like rows.
const loTag = 'L'

// LOBlockSize is PostgreSQL's LOBLKSIZE (BLCKSZ/4): the bytes of one
// pg_largeobject page.
const LOBlockSize = 2048

// MaxLargeObjectSize is PostgreSQL's MAX_LARGE_OBJECT_SIZE: INT_MAX pages.
const MaxLargeObjectSize = int64(LOBlockSize) * (1<<31 - 1)

// Attributes of large-object items.
const (
	loOwnerAttr = ReservedPrefix + "owner"
	loACLAttr   = ReservedPrefix + "acl"
	// loCommentAttr is COMMENT ON LARGE OBJECT's text.
	loCommentAttr = ReservedPrefix + "comment"
	loDataAttr    = ReservedPrefix + "data"
)

// LargeObject is a large object's metadata (pg_largeobject_metadata).
type LargeObject struct {
	OID   uint32
	Owner string
	// Grants are its access control list in order, the owner's entry
	// first; nil when nothing was ever granted (lomacl NULL: the owner's
	// default).
	Grants []LargeObjectGrant
	// Comment is COMMENT ON LARGE OBJECT's text (pg_description).
	Comment string
}

// LargeObjectGrant is one entry of a large object's ACL: what Role
// (PublicRole for PUBLIC) holds, of PrivSelect and PrivUpdate.
type LargeObjectGrant struct {
	Role  string
	Privs Privilege
}

// ACL is the object's lomacl as aclitem text, granted by the owner; nil
// when nothing was ever granted.
func (lo LargeObject) ACL() []string {
	if lo.Grants == nil {
		return nil
	}
	out := make([]string, 0, len(lo.Grants))
	for _, g := range lo.Grants {
		grantee := g.Role
		if grantee == PublicRole {
			grantee = ""
		}
		out = append(out, ACLItem(grantee, g.Privs.ACLLetters(), lo.Owner))
	}
	return out
}

// ChangeOwner gives the object to role: the old owner's ACL entry becomes
// role's, merged with any role held (PostgreSQL's aclnewowner).
func (lo *LargeObject) ChangeOwner(role string) {
	old := lo.Owner
	lo.Owner = role
	if lo.Grants == nil || old == role {
		return
	}
	var merged []LargeObjectGrant
	at := map[string]int{}
	for _, g := range lo.Grants {
		if g.Role == old {
			g.Role = role
		}
		if i, ok := at[g.Role]; ok {
			merged[i].Privs |= g.Privs
			continue
		}
		at[g.Role] = len(merged)
		merged = append(merged, g)
	}
	lo.Grants = merged
}

// Grant gives role privs on the object (with revoke, takes them away), as
// PostgreSQL's aclupdate: the owner's default entry is made explicit
// first, a new grantee goes last, an entry left with nothing goes.
func (lo *LargeObject) Grant(role string, privs Privilege, revoke bool) {
	if lo.Grants == nil {
		lo.Grants = []LargeObjectGrant{{Role: lo.Owner, Privs: KindLargeObject.All()}}
	}
	for i := range lo.Grants {
		if lo.Grants[i].Role != role {
			continue
		}
		if revoke {
			lo.Grants[i].Privs &^= privs
		} else {
			lo.Grants[i].Privs |= privs
		}
		if lo.Grants[i].Privs == 0 {
			lo.Grants = append(lo.Grants[:i], lo.Grants[i+1:]...)
		}
		return
	}
	if !revoke && privs != 0 {
		lo.Grants = append(lo.Grants, LargeObjectGrant{Role: role, Privs: privs})
	}
}

// LargeObjectPage is one stored page (pg_largeobject).
type LargeObjectPage struct {
	PageNo int32
	Data   []byte
}

func loMetaPartition() []byte { return partition(loTag, 0, 0) }

func loPagePartition(oid uint32) []byte { return partition(loTag, uint64(oid), 0) }

func be32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// LargeObjectMeta reads oid's metadata; ok is false when it does not exist.
func LargeObjectMeta(ctx context.Context, rw kv.ReadWriter, oid uint32) (lo LargeObject, ok bool, err error) {
	items, err := rw.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: loMetaPartition(), Sort: be32(oid)}}, Consistent: true})
	if err != nil || len(items) == 0 || !kv.Found(items[0]) {
		return LargeObject{}, false, err
	}
	return decodeLargeObject(items[0]), true, nil
}

// decodeLargeObject decodes a metadata item. Its strings are copied: a
// scan's item is valid only until the iterator moves (kv.Iterator).
func decodeLargeObject(it kv.Item) LargeObject {
	lo := LargeObject{OID: binary.BigEndian.Uint32(it.Key.Sort), Owner: strings.Clone(kv.Lookup(it.Attrs, loOwnerAttr).S),
		Comment: strings.Clone(kv.Lookup(it.Attrs, loCommentAttr).S)}
	a := kv.Lookup(it.Attrs, loACLAttr)
	if a.Kind != kv.AttrString {
		return lo
	}
	lo.Grants = []LargeObjectGrant{}
	for _, line := range strings.Split(strings.Clone(a.S), "\n") {
		role, bits, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		p, _ := strconv.ParseUint(bits, 10, 64)
		lo.Grants = append(lo.Grants, LargeObjectGrant{Role: role, Privs: Privilege(p)})
	}
	return lo
}

// largeObjectItem is the metadata item's attributes: the ACL, when there
// is one, as lines of role TAB privilege bits.
func largeObjectItem(lo LargeObject) []kv.Attr {
	attrs := []kv.Attr{{Name: loOwnerAttr, Kind: kv.AttrString, S: lo.Owner}}
	if lo.Comment != "" {
		attrs = append(attrs, kv.Attr{Name: loCommentAttr, Kind: kv.AttrString, S: lo.Comment})
	}
	if lo.Grants != nil {
		var b strings.Builder
		for i, g := range lo.Grants {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%s\t%d", g.Role, g.Privs)
		}
		attrs = append(attrs, kv.Attr{Name: loACLAttr, Kind: kv.AttrString, S: b.String()})
	}
	return attrs
}

// ErrLargeObjectExists is CreateLargeObject's error when the OID is taken.
var ErrLargeObjectExists = errors.New("large object exists")

// CreateLargeObject stores a new, empty large object; it returns
// ErrLargeObjectExists when oid is taken.
func CreateLargeObject(ctx context.Context, rw kv.ReadWriter, lo LargeObject) error {
	err := rw.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Cond: kv.CondNotExists,
		Key: kv.Key{Partition: loMetaPartition(), Sort: be32(lo.OID)}, Attrs: largeObjectItem(lo)}}})
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		return ErrLargeObjectExists
	}
	return err
}

// SetLargeObjectMeta rewrites an existing large object's metadata (its ACL).
func SetLargeObjectMeta(ctx context.Context, rw kv.ReadWriter, lo LargeObject) error {
	return rw.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut,
		Key: kv.Key{Partition: loMetaPartition(), Sort: be32(lo.OID)}, Attrs: largeObjectItem(lo)}}})
}

// LargeObjects lists every large object's metadata in OID order.
func LargeObjects(ctx context.Context, rw kv.ReadWriter) ([]LargeObject, error) {
	it := rw.Scan(ctx, kv.ScanRequest{Partition: loMetaPartition(), Consistent: true})
	defer it.Close()
	var out []LargeObject
	for it.Next() {
		out = append(out, decodeLargeObject(it.Item()))
	}
	return out, it.Err()
}

// LargeObjectPages reads the stored pages of oid from page first on, in
// order (copies).
func LargeObjectPages(ctx context.Context, rw kv.ReadWriter, oid uint32, first int32) ([]LargeObjectPage, error) {
	it := rw.Scan(ctx, kv.ScanRequest{Partition: loPagePartition(oid), Start: be32(uint32(first)), Consistent: true})
	defer it.Close()
	var out []LargeObjectPage
	for it.Next() {
		item := it.Item()
		out = append(out, LargeObjectPage{PageNo: int32(binary.BigEndian.Uint32(item.Key.Sort)),
			Data: append([]byte(nil), kv.Lookup(item.Attrs, loDataAttr).B...)})
	}
	return out, it.Err()
}

// LargeObjectSize is the object's length: the end of its last page.
func LargeObjectSize(ctx context.Context, rw kv.ReadWriter, oid uint32) (int64, error) {
	it := rw.Scan(ctx, kv.ScanRequest{Partition: loPagePartition(oid), Reverse: true, Limit: 1, Consistent: true})
	defer it.Close()
	if it.Next() {
		item := it.Item()
		return int64(binary.BigEndian.Uint32(item.Key.Sort))*LOBlockSize + int64(len(kv.Lookup(item.Attrs, loDataAttr).B)), nil
	}
	return 0, it.Err()
}

// ReadLargeObject reads up to n bytes of oid from off on (fewer at its
// end); holes read as zeros.
func ReadLargeObject(ctx context.Context, rw kv.ReadWriter, oid uint32, off int64, n int64) ([]byte, error) {
	if n <= 0 || off >= MaxLargeObjectSize {
		return []byte{}, nil
	}
	first := int32(off / LOBlockSize)
	last := (off + n - 1) / LOBlockSize // the last page wanted
	it := rw.Scan(ctx, kv.ScanRequest{Partition: loPagePartition(oid), Start: be32(uint32(first)),
		End: be32(uint32(min(last+1, 1<<31-1))), Consistent: true})
	defer it.Close()
	var out []byte
	end := off // the end of what is known, so far, to exist
	for it.Next() {
		item := it.Item()
		pageStart := int64(binary.BigEndian.Uint32(item.Key.Sort)) * LOBlockSize
		data := kv.Lookup(item.Attrs, loDataAttr).B
		from := max(off, pageStart)
		to := min(off+n, pageStart+int64(len(data)))
		if to <= from {
			continue
		}
		for int64(len(out)) < from-off {
			out = append(out, 0) // a hole before this page
		}
		out = append(out, data[from-pageStart:to-pageStart]...)
		end = to
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if end < off+n {
		// A hole up to a page after the range reads as zeros too.
		size, err := LargeObjectSize(ctx, rw, oid)
		if err != nil {
			return nil, err
		}
		end = max(end, min(off+n, size))
	}
	if int64(len(out)) < end-off {
		out = append(out, make([]byte, end-off-int64(len(out)))...)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

// WriteLargeObject writes data into oid at off, rewriting the pages it
// touches.
func WriteLargeObject(ctx context.Context, rw kv.ReadWriter, oid uint32, off int64, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	first := int32(off / LOBlockSize)
	last := int32((off + int64(len(data)) - 1) / LOBlockSize)
	old, err := pagesIn(ctx, rw, oid, first, last)
	if err != nil {
		return err
	}
	var ops []kv.Op
	for p := first; p <= last; p++ {
		pageStart := int64(p) * LOBlockSize
		page := old[p]
		from := max(off, pageStart) - pageStart
		to := min(off+int64(len(data)), pageStart+LOBlockSize) - pageStart
		if int64(len(page)) < to {
			page = append(page, make([]byte, to-int64(len(page)))...)
		}
		copy(page[from:to], data[pageStart+from-off:pageStart+to-off])
		ops = append(ops, pagePut(oid, p, page))
	}
	return rw.Write(ctx, kv.Batch{Atomic: true, Ops: ops})
}

// pagesIn reads the stored pages first..last of oid by number.
func pagesIn(ctx context.Context, rw kv.ReadWriter, oid uint32, first, last int32) (map[int32][]byte, error) {
	it := rw.Scan(ctx, kv.ScanRequest{Partition: loPagePartition(oid), Start: be32(uint32(first)),
		End: be32(uint32(last) + 1), Consistent: true})
	defer it.Close()
	out := map[int32][]byte{}
	for it.Next() {
		item := it.Item()
		out[int32(binary.BigEndian.Uint32(item.Key.Sort))] = append([]byte(nil), kv.Lookup(item.Attrs, loDataAttr).B...)
	}
	return out, it.Err()
}

func pagePut(oid uint32, p int32, data []byte) kv.Op {
	return kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: loPagePartition(oid), Sort: be32(uint32(p))},
		Attrs: []kv.Attr{{Name: loDataAttr, Kind: kv.AttrBytes, B: data}}}
}

// TruncateLargeObject cuts or extends oid to size bytes: pages past it
// go, the page it ends in is cut; extending writes the last page up to
// size with zeros (the rest stays a hole), as PostgreSQL's inv_truncate.
func TruncateLargeObject(ctx context.Context, rw kv.ReadWriter, oid uint32, size int64) error {
	p := int32(size / LOBlockSize)
	rest := size - int64(p)*LOBlockSize
	pages, err := LargeObjectPages(ctx, rw, oid, p)
	if err != nil {
		return err
	}
	var ops []kv.Op
	var page []byte
	for _, pg := range pages {
		if pg.PageNo == p {
			page = pg.Data
			continue
		}
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: loPagePartition(oid), Sort: be32(uint32(pg.PageNo))}})
	}
	switch {
	case int64(len(page)) > rest:
		page = page[:rest]
	case int64(len(page)) < rest:
		page = append(page, make([]byte, rest-int64(len(page)))...)
	}
	// PostgreSQL keeps (or writes) the page the new end falls in, even
	// when it is left empty.
	ops = append(ops, pagePut(oid, p, page))
	return rw.Write(ctx, kv.Batch{Atomic: true, Ops: ops})
}

// DeleteLargeObject removes oid's metadata and pages.
func DeleteLargeObject(ctx context.Context, rw kv.ReadWriter, oid uint32) error {
	pages, err := LargeObjectPages(ctx, rw, oid, 0)
	if err != nil {
		return err
	}
	ops := []kv.Op{{Kind: kv.OpDelete, Key: kv.Key{Partition: loMetaPartition(), Sort: be32(oid)}}}
	for _, pg := range pages {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: loPagePartition(oid), Sort: be32(uint32(pg.PageNo))}})
	}
	return rw.Write(ctx, kv.Batch{Atomic: true, Ops: ops})
}
