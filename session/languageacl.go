package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
)

// Language privileges (GRANT ... ON LANGUAGE, lanacl): the trusted
// languages' ACLs live on the session's database's entry in the store's
// registry, as pg_language is a database's own catalog; USAGE is checked
// by CREATE FUNCTION and CREATE PROCEDURE. The languages belong to the
// bootstrap superuser, so only a superuser changes their ACLs.

// holdsLanguageUsage reports whether the current role may create routines
// in language (sql or plpgsql; the untrusted ones are a superuser's).
func (s *Session) holdsLanguageUsage(snap *catalog.Snapshot, language string) bool {
	if s.isSuperuser(snap) {
		return true
	}
	if trusted, _ := pgcatalog.LanguageTrusted(language); !trusted {
		return false
	}
	reg, err := s.engine.root.catalog.Snapshot(context.Background())
	if err != nil {
		return false
	}
	d := s.currentDatabase(reg)
	return snap.LanguagePrivileges(s.currentUser(), d, language, pgcatalog.BootstrapRole)&catalog.PrivUsage != 0
}

// grantLanguages runs GRANT or REVOKE ON LANGUAGE on the session's
// database: a superuser's; a role holding USAGE gets PostgreSQL's
// warning and changes nothing, one holding none is refused.
func (s *Session) grantLanguages(ctx context.Context, x *ir.Grant) error {
	var warnings []*pgerr.Error
	_, err := s.engine.root.catalog.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		warnings = warnings[:0]
		d := s.currentDatabase(snap).Clone()
		changed := false
		for _, o := range x.Objects {
			if !s.isSuperuser(snap) {
				if snap.LanguagePrivileges(s.currentUser(), d, o.Name, pgcatalog.BootstrapRole) == 0 {
					return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for language %s", o.Name)
				}
				warnings = append(warnings, nothingGranted(x, o.Name))
				continue
			}
			acl := d.LanguageACL(o.Name, pgcatalog.BootstrapRole)
			if err := s.grantACL(snap, acl, x, o.Privileges); err != nil {
				return catalog.Change{}, err
			}
			if d.Languages == nil {
				d.Languages = map[string]map[string]catalog.Privilege{}
			}
			d.Languages[o.Name] = acl
			changed = true
		}
		if !changed {
			return catalog.Change{}, errNothingToDo
		}
		return catalog.Change{PutDatabases: []*catalog.Database{d}}, nil
	})
	for _, w := range warnings {
		s.notice(w)
	}
	if err == errNothingToDo {
		return nil
	}
	return err
}

var _ pgcatalog.LanguageACLs = pgSession{}

// LanguageACL implements pgcatalog.LanguageACLs from the session's
// database's entry in the store's registry.
func (p pgSession) LanguageACL(language string) ([]string, func(role string) catalog.Privilege) {
	if trusted, _ := pgcatalog.LanguageTrusted(language); !trusted {
		return nil, nil
	}
	reg, err := p.s.engine.root.catalog.Snapshot(context.Background())
	if err != nil {
		return nil, nil
	}
	d := p.s.currentDatabase(reg)
	return d.LanguageACLItems(language, pgcatalog.BootstrapRole), func(role string) catalog.Privilege {
		return reg.LanguagePrivileges(role, d, language, pgcatalog.BootstrapRole)
	}
}
