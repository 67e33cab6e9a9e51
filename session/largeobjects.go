package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Large objects (ARCHITECTURE.md, "Large objects"). The objects are stored
// items (catalog/largeobjects.go) read and written through the
// statement's transaction: the session runs every statement calling a
// large-object function in one (needsTransaction), so ROLLBACK undoes
// them. Descriptors are the transaction's, numbered from 0 as PostgreSQL
// numbers them, and go when it ends.

// PostgreSQL's lo modes (libpq/libpq-fs.h).
const (
	invWrite = 0x20000
	invRead  = 0x40000
)

// loDesc is one open large-object descriptor.
type loDesc struct {
	oid    uint32
	offset int64
	write  bool
	// depth is how many savepoints were open when it was opened: rolling
	// back to one of them closes it, as PostgreSQL closes the descriptors
	// of an aborted subtransaction.
	depth int
	// frozen, of a read-only descriptor, is the object as it was when the
	// descriptor was opened, kept once the transaction first writes the
	// object after that (freeze): PostgreSQL's read-only descriptor reads
	// the snapshot it was opened in, not the transaction's later writes.
	frozen *loFrozen
}

// loFrozen is a large object's content at one point: its stored pages in
// order, and its length.
type loFrozen struct {
	pages []catalog.LargeObjectPage
	size  int64
}

// read reads up to n bytes from off on, as catalog.ReadLargeObject reads
// the stored object (holes as zeros, fewer bytes at its end).
func (f *loFrozen) read(off, n int64) []byte {
	end := min(off+n, f.size)
	if n <= 0 || end <= off {
		return []byte{}
	}
	out := make([]byte, end-off)
	i := sort.Search(len(f.pages), func(i int) bool {
		p := f.pages[i]
		return int64(p.PageNo)*catalog.LOBlockSize+int64(len(p.Data)) > off
	})
	for ; i < len(f.pages); i++ {
		p := f.pages[i]
		start := int64(p.PageNo) * catalog.LOBlockSize
		if start >= end {
			break
		}
		from, to := max(off, start), min(end, start+int64(len(p.Data)))
		if to > from {
			copy(out[from-off:], p.Data[from-start:to-start])
		}
	}
	return out
}

// freeze keeps, for each read-only descriptor of oid, the object as it is
// now, before the transaction writes it (rw: its transaction): the state
// the descriptor was opened in, as nothing wrote the object since.
func (l *sessionLargeObjects) freeze(rw kv.ReadWriter, oid uint32) error {
	var f *loFrozen
	for _, d := range l.s.loDescs {
		if d == nil || d.oid != oid || d.write || d.frozen != nil {
			continue
		}
		if f == nil {
			pages, err := catalog.LargeObjectPages(l.ctx, rw, oid, 0)
			if err != nil {
				return storeErr(err)
			}
			f = &loFrozen{pages: pages}
			if n := len(pages); n > 0 {
				f.size = int64(pages[n-1].PageNo)*catalog.LOBlockSize + int64(len(pages[n-1].Data))
			}
		}
		d.frozen = f
	}
	return nil
}

// writer is the transaction the session writes oid through, after
// keeping what its read-only descriptors must go on reading (freeze; oid
// 0: a new object, which none reads). A read-only transaction's cannot
// write (kv.TxnOptions.ReadOnly): where PostgreSQL 15 writes the object,
// zproxy refuses (0A000).
func (l *sessionLargeObjects) writer(oid uint32) (kv.ReadWriter, error) {
	t, err := l.s.blockTxn(l.ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if t != nil && t.ReadOnly() {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "large objects cannot be written in a read-only transaction").
			WithHint("Write them in a read-write transaction.")
	}
	rw, err := l.rw()
	if err != nil {
		return nil, err
	}
	if oid != 0 {
		if err := l.freeze(rw, oid); err != nil {
			return nil, err
		}
	}
	return rw, nil
}

// closeLargeObjectsAbove closes the descriptors opened while more than
// depth savepoints were open (ROLLBACK TO SAVEPOINT).
func (s *Session) closeLargeObjectsAbove(depth int) {
	for i, d := range s.loDescs {
		if d != nil && d.depth >= depth {
			s.loDescs[i] = nil
		}
	}
}

// keepLargeObjectsAt hands the descriptors of released savepoints to the
// enclosing level (RELEASE SAVEPOINT), as a subtransaction's commit does.
func (s *Session) keepLargeObjectsAt(depth int) {
	for _, d := range s.loDescs {
		if d != nil && d.depth > depth {
			d.depth = depth
		}
	}
}

// sessionLargeObjects implements builtins.LargeObjects for one statement.
type sessionLargeObjects struct {
	s   *Session
	ctx context.Context
}

var _ builtins.LargeObjects = (*sessionLargeObjects)(nil)

// rw is the transaction the objects are read and written through.
func (l *sessionLargeObjects) rw() (kv.ReadWriter, error) {
	t, err := l.s.blockTxn(l.ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if t == nil {
		// needsTransaction runs every statement calling these functions
		// in a transaction; a caller that has none cannot reach them.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "large-object functions need a transaction here")
	}
	return t.KV(), nil
}

// object reads oid's metadata through the transaction, failing with 42704
// when it does not exist.
func (l *sessionLargeObjects) object(oid uint32) (kv.ReadWriter, catalog.LargeObject, error) {
	rw, err := l.rw()
	if err != nil {
		return nil, catalog.LargeObject{}, err
	}
	lo, ok, err := catalog.LargeObjectMeta(l.ctx, rw, oid)
	if err != nil {
		return nil, lo, storeErr(err)
	}
	if !ok {
		return nil, lo, pgerr.New(pgerr.UndefinedObject, "large object %d does not exist", oid)
	}
	return rw, lo, nil
}

// allowed reports whether the current user holds priv (PrivSelect or
// PrivUpdate) on lo: a superuser, its owner (or a member of the owner), a
// grantee (or PUBLIC), or anyone with lo_compat_privileges on.
func (l *sessionLargeObjects) allowed(lo catalog.LargeObject, priv catalog.Privilege) (bool, error) {
	if v, _ := l.s.Setting("lo_compat_privileges"); v == "on" {
		return true, nil
	}
	snap, err := l.s.snapshot(l.ctx)
	if err != nil {
		return false, storeErr(err)
	}
	user := l.s.currentUser()
	if l.s.isSuperuser(snap) || user == lo.Owner || snap.IsMemberOf(user, lo.Owner) {
		return true, nil
	}
	return holds(snap, user, lo, priv), nil
}

// holds reports whether user holds priv through lo's ACL (its own entry,
// a role it is a member of, or PUBLIC's).
func holds(snap *catalog.Snapshot, user string, lo catalog.LargeObject, priv catalog.Privilege) bool {
	for _, g := range lo.Grants {
		if g.Privs&priv != 0 && (g.Role == catalog.PublicRole || g.Role == user || snap.IsMemberOf(user, g.Role)) {
			return true
		}
	}
	return false
}

// require fails with 42501 unless the user holds priv on lo.
func (l *sessionLargeObjects) require(lo catalog.LargeObject, priv catalog.Privilege) error {
	ok, err := l.allowed(lo, priv)
	if err == nil && !ok {
		err = pgerr.New(pgerr.InsufficientPrivilege, "permission denied for large object %d", lo.OID)
	}
	return err
}

// firstFreeOID is where Create's search for an unused OID starts:
// PostgreSQL's FirstNormalObjectId.
const firstFreeOID = 16384

func (l *sessionLargeObjects) Create(oid uint32) (uint32, error) {
	rw, err := l.writer(0)
	if err != nil {
		return 0, err
	}
	lo := catalog.LargeObject{OID: oid, Owner: l.s.currentUser()}
	for attempt := 0; ; attempt++ {
		if oid == 0 {
			// A random OID, so proxies creating objects at once rarely
			// meet; a taken one is skipped.
			lo.OID = firstFreeOID + rand.Uint32N(1<<32-1-firstFreeOID)
		}
		err = catalog.CreateLargeObject(l.ctx, rw, lo)
		if !errors.Is(err, catalog.ErrLargeObjectExists) {
			break
		}
		if oid != 0 || attempt > 100 {
			return 0, &pgerr.Error{Code: pgerr.UniqueViolation, Severity: "ERROR",
				Message: `duplicate key value violates unique constraint "pg_largeobject_metadata_oid_index"`,
				Detail:  fmt.Sprintf("Key (oid)=(%d) already exists.", lo.OID)}
		}
	}
	if err != nil {
		return 0, storeErr(err)
	}
	return lo.OID, nil
}

func (l *sessionLargeObjects) Open(oid uint32, mode int32) (int32, error) {
	write, read := mode&invWrite != 0, mode&invRead != 0
	if !write && !read {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid flags for opening a large object: %d", mode)
	}
	_, lo, err := l.object(oid)
	if err != nil {
		return 0, err
	}
	// Opening for writing needs both privileges, as in inv_open.
	if err := l.require(lo, catalog.PrivSelect); err != nil {
		return 0, err
	}
	if write {
		if err := l.require(lo, catalog.PrivUpdate); err != nil {
			return 0, err
		}
	}
	d := &loDesc{oid: oid, write: write, depth: len(l.s.savepoints)}
	for i, x := range l.s.loDescs {
		if x == nil {
			l.s.loDescs[i] = d
			return int32(i), nil
		}
	}
	l.s.loDescs = append(l.s.loDescs, d)
	return int32(len(l.s.loDescs) - 1), nil
}

// desc finds an open descriptor (42704 if none).
func (l *sessionLargeObjects) desc(fd int32) (*loDesc, error) {
	if fd < 0 || int(fd) >= len(l.s.loDescs) || l.s.loDescs[fd] == nil {
		return nil, pgerr.New(pgerr.UndefinedObject, "invalid large-object descriptor: %d", fd)
	}
	return l.s.loDescs[fd], nil
}

// writable finds a descriptor opened for writing (55000 if it was not).
func (l *sessionLargeObjects) writable(fd int32) (*loDesc, error) {
	d, err := l.desc(fd)
	if err == nil && !d.write {
		err = pgerr.New(pgerr.ObjectNotInPrerequisiteState, "large object descriptor %d was not opened for writing", fd)
	}
	return d, err
}

func (l *sessionLargeObjects) Close(fd int32) error {
	if _, err := l.desc(fd); err != nil {
		return err
	}
	l.s.loDescs[fd] = nil
	return nil
}

func (l *sessionLargeObjects) Read(fd int32, n int32) ([]byte, error) {
	d, err := l.desc(fd)
	if err != nil {
		return nil, err
	}
	n = max(n, 0) // a negative length reads nothing, as in be_loread
	if d.frozen != nil {
		b := d.frozen.read(d.offset, int64(n))
		d.offset += int64(len(b))
		return b, nil
	}
	rw, err := l.rw()
	if err != nil {
		return nil, err
	}
	b, err := catalog.ReadLargeObject(l.ctx, rw, d.oid, d.offset, int64(n))
	if err != nil {
		return nil, storeErr(err)
	}
	d.offset += int64(len(b))
	return b, nil
}

func (l *sessionLargeObjects) Write(fd int32, data []byte) (int32, error) {
	d, err := l.writable(fd)
	if err != nil {
		return 0, err
	}
	if d.offset+int64(len(data)) > catalog.MaxLargeObjectSize {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid large object write request size: %d", len(data))
	}
	rw, err := l.writer(d.oid)
	if err != nil {
		return 0, err
	}
	if err := catalog.WriteLargeObject(l.ctx, rw, d.oid, d.offset, data); err != nil {
		return 0, storeErr(err)
	}
	d.offset += int64(len(data))
	return int32(len(data)), nil
}

func (l *sessionLargeObjects) Seek(fd int32, off int64, whence int32) (int64, error) {
	d, err := l.desc(fd)
	if err != nil {
		return 0, err
	}
	var to int64
	switch whence {
	case 0:
		to = off
	case 1:
		to = d.offset + off
	case 2:
		if d.frozen != nil {
			to = d.frozen.size + off
			break
		}
		rw, err := l.rw()
		if err != nil {
			return 0, err
		}
		size, err := catalog.LargeObjectSize(l.ctx, rw, d.oid)
		if err != nil {
			return 0, storeErr(err)
		}
		to = size + off
	default:
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid whence setting: %d", whence)
	}
	if to < 0 || to > catalog.MaxLargeObjectSize {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid large object seek target: %d", to)
	}
	d.offset = to
	return to, nil
}

func (l *sessionLargeObjects) Tell(fd int32) (int64, error) {
	d, err := l.desc(fd)
	if err != nil {
		return 0, err
	}
	return d.offset, nil
}

func (l *sessionLargeObjects) Truncate(fd int32, size int64) error {
	d, err := l.writable(fd)
	if err != nil {
		return err
	}
	if size < 0 || size > catalog.MaxLargeObjectSize {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid large object truncation target: %d", size)
	}
	rw, err := l.writer(d.oid)
	if err != nil {
		return err
	}
	return storeErr(catalog.TruncateLargeObject(l.ctx, rw, d.oid, size))
}

func (l *sessionLargeObjects) Unlink(oid uint32) error {
	rw, lo, err := l.object(oid)
	if err != nil {
		return err
	}
	if v, _ := l.s.Setting("lo_compat_privileges"); v != "on" {
		snap, err := l.s.snapshot(l.ctx)
		if err != nil {
			return storeErr(err)
		}
		user := l.s.currentUser()
		if !l.s.isSuperuser(snap) && user != lo.Owner && !snap.IsMemberOf(user, lo.Owner) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of large object %d", oid)
		}
	}
	if rw, err = l.writer(0); err != nil {
		return err
	}
	// The transaction's descriptors of the object close with it.
	for i, d := range l.s.loDescs {
		if d != nil && d.oid == oid {
			l.s.loDescs[i] = nil
		}
	}
	return storeErr(catalog.DeleteLargeObject(l.ctx, rw, oid))
}

func (l *sessionLargeObjects) Get(oid uint32, off int64, n int64) ([]byte, error) {
	rw, lo, err := l.object(oid)
	if err != nil {
		return nil, err
	}
	if err := l.require(lo, catalog.PrivSelect); err != nil {
		return nil, err
	}
	if off < 0 || off > catalog.MaxLargeObjectSize {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid large object seek target: %d", off)
	}
	if n < 0 {
		size, err := catalog.LargeObjectSize(l.ctx, rw, oid)
		if err != nil {
			return nil, storeErr(err)
		}
		n = max(size-off, 0)
	}
	b, err := catalog.ReadLargeObject(l.ctx, rw, oid, off, n)
	return b, storeErr(err)
}

func (l *sessionLargeObjects) Put(oid uint32, off int64, data []byte) error {
	rw, lo, err := l.object(oid)
	if err != nil {
		return err
	}
	if err := l.require(lo, catalog.PrivSelect); err != nil {
		return err
	}
	if err := l.require(lo, catalog.PrivUpdate); err != nil {
		return err
	}
	if off < 0 || off > catalog.MaxLargeObjectSize {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid large object seek target: %d", off)
	}
	if off+int64(len(data)) > catalog.MaxLargeObjectSize {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid large object write request size: %d", len(data))
	}
	if rw, err = l.writer(oid); err != nil {
		return err
	}
	return storeErr(catalog.WriteLargeObject(l.ctx, rw, oid, off, data))
}

// loReader is what the catalogs read large objects through: the block's
// transaction, or the store outside one.
func (s *Session) loReader(ctx context.Context) (kv.ReadWriter, error) {
	t, err := s.blockTxn(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if t != nil {
		return t.KV(), nil
	}
	return s.engine.exec.Store, nil
}

// LargeObjects implements pgcatalog.LargeObjectReader.
func (p pgSession) LargeObjects(ctx context.Context) ([]catalog.LargeObject, error) {
	rw, err := p.s.loReader(ctx)
	if err != nil {
		return nil, err
	}
	los, err := catalog.LargeObjects(ctx, rw)
	return los, storeErr(err)
}

// LargeObjectPages implements pgcatalog.LargeObjectReader.
func (p pgSession) LargeObjectPages(ctx context.Context, oid uint32) ([]catalog.LargeObjectPage, error) {
	rw, err := p.s.loReader(ctx)
	if err != nil {
		return nil, err
	}
	pages, err := catalog.LargeObjectPages(ctx, rw, oid, 0)
	return pages, storeErr(err)
}

// grantLargeObjects runs GRANT or REVOKE ON LARGE OBJECT: each object's
// ACL (its metadata item) is rewritten in the statement's transaction.
// As for other objects, only the owner (or a superuser, granting as the
// owner) changes it; a role that holds some privilege on it gets a
// warning, one that holds none is refused.
func (s *Session) grantLargeObjects(ctx context.Context, x *ir.Grant) error {
	l := &sessionLargeObjects{s: s, ctx: ctx}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	user := s.currentUser()
	var grantees []string
	for _, spec := range x.Roles {
		name := s.granteeName(spec)
		if !spec.Public && snap.Role(name) == nil {
			return pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
		}
		grantees = append(grantees, name)
	}
	for _, o := range x.Objects {
		rw, lo, err := l.object(uint32(o.ID))
		if err != nil {
			return err
		}
		if !s.isSuperuser(snap) && user != lo.Owner && !snap.IsMemberOf(user, lo.Owner) {
			if !holds(snap, user, lo, catalog.KindLargeObject.All()) {
				return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for large object %d", lo.OID)
			}
			if x.Revoke {
				s.notice(pgerr.NewWarning(pgerr.PrivilegeNotRevoked, "no privileges could be revoked for \"%s\"", o.Name))
			} else {
				s.notice(pgerr.NewWarning(pgerr.PrivilegeNotGranted, "no privileges were granted for \"%s\"", o.Name))
			}
			continue
		}
		for _, g := range grantees {
			lo.Grant(g, o.Privileges, x.Revoke)
		}
		if err := catalog.SetLargeObjectMeta(ctx, rw, lo); err != nil {
			return storeErr(err)
		}
	}
	return nil
}

// ownedLargeObject reads oid's metadata through the statement's
// transaction for a change only its owner (a member of the owner, or a
// superuser) may make: 42704 when it does not exist, 42501 for another
// role.
func (s *Session) ownedLargeObject(ctx context.Context, oid uint32) (kv.ReadWriter, catalog.LargeObject, *catalog.Snapshot, error) {
	l := &sessionLargeObjects{s: s, ctx: ctx}
	rw, lo, err := l.object(oid)
	if err != nil {
		return nil, lo, nil, err
	}
	snap, err := s.snapshot(ctx)
	if err != nil {
		return nil, lo, nil, storeErr(err)
	}
	if !s.isSuperuser(snap) && lo.Owner != s.currentUser() && !snap.IsMemberOf(s.currentUser(), lo.Owner) {
		return nil, lo, nil, pgerr.New(pgerr.InsufficientPrivilege, "must be owner of large object %d", lo.OID)
	}
	return rw, lo, snap, nil
}
