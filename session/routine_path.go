package session

import (
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
)

// A routine's SET search_path (its proconfig) applies while it runs, as
// in PostgreSQL: its body resolves names through that path, whatever the
// caller's is (the defense of a SECURITY DEFINER routine against objects
// the caller put first on its own path), current_setting('search_path'),
// current_schema() and current_schemas() in it report it, and the
// caller's path is back when it returns. CREATE checks the body under it
// too.

// routinePath is fn's SET search_path value, if it has one.
func routinePath(fn *catalog.Function) (string, bool) {
	if fn == nil {
		return "", false
	}
	for _, c := range fn.Config {
		if name, v, ok := strings.Cut(c, "="); ok && name == "search_path" {
			return v, true
		}
	}
	return "", false
}

// routineScope is where a routine's body binds: the snapshot whose search
// path it resolves names through, and the key of that path in the caches
// of bound statements ("" for the caller's path).
type routineScope struct {
	snap    *catalog.Snapshot
	pathKey string
}

// routinePaths caches the snapshots of routines' search paths over one
// snapshot of the statement's, as withPath caches the session's.
type routinePaths struct {
	mu   sync.Mutex
	base *catalog.Snapshot
	m    map[string]*catalog.Snapshot
}

// scopeOf is fn's scope over snap when user runs it (a SECURITY DEFINER
// routine's user is its owner): snap itself without a SET search_path.
func (s *Session) scopeOf(snap *catalog.Snapshot, fn *catalog.Function, user string) routineScope {
	path, ok := routinePath(fn)
	if !ok {
		return routineScope{snap: snap}
	}
	// The user is part of the key: "$user" in the path is theirs, and so
	// are the schemas the snapshot denies for want of USAGE.
	key := path + "\x00" + user
	c := &s.routinePaths
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.base != snap {
		c.base, c.m = snap, map[string]*catalog.Snapshot{}
	}
	p, ok := c.m[key]
	if !ok {
		p = s.pathSnapshot(snap, path, user)
		c.m[key] = p
	}
	return routineScope{snap: p, pathKey: key}
}

// inScope is the evaluation context of fn's body when it has a search
// path of its own: current_setting and the catalog functions see it.
func inScope(fc *builtins.Context, fn *catalog.Function, sc routineScope) *builtins.Context {
	path, ok := routinePath(fn)
	if !ok {
		return fc
	}
	inner := *fc
	parent := fc.Settings
	inner.Settings = func(name string) (string, bool) {
		if n, ok := canonicalVar(name); ok && n == "search_path" {
			return path, true
		}
		if parent == nil {
			return "", false
		}
		return parent(name)
	}
	if env, ok := fc.Catalog.(*pgcatalog.Env); ok {
		e := *env
		e.Snap = sc.snap
		inner.Catalog = &e
	}
	return &inner
}
