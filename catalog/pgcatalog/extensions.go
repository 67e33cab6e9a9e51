package pgcatalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Extension is an extension zproxy has built in: its objects exist in
// every database. CREATE EXTENSION records that a database asked for it
// (catalog.Extension), which ExtensionOID and ExtensionUser below read.
type Extension struct {
	OID         uint32
	Name        string
	Version     string
	Namespace   uint32 // the schema of its objects
	Description string // its control file's comment (pg_description)
	// Trusted and Relocatable are its control file's trusted and
	// relocatable (pg_available_extension_versions; every one needs a
	// superuser to create, which its control file does not waive).
	Trusted, Relocatable bool
	// Relations are the catalog relations it provides, which pg_depend
	// records as its members (psql's \dx+ lists them).
	Relations []string
}

// pgExtensionOID is pg_extension's OID, the classoid of extensions'
// descriptions and dependencies.
const pgExtensionOID = 3079

// Extensions are the built-in extensions pg_extension lists: tools look
// for pg_stat_statements there before they read it.
var Extensions = []Extension{
	{OID: 12920, Name: "pg_stat_statements", Trusted: false, Relocatable: true, Version: "1.10", Namespace: NamespaceCatalog,
		Description: "track planning and execution statistics of all SQL statements executed",
		Relations:   []string{"pg_catalog.pg_stat_statements", "pg_catalog.pg_stat_statements_info"}},
	// Their functions are in package builtins (ext_uuid_pgcrypto.go).
	{OID: 12921, Name: "uuid-ossp", Trusted: true, Relocatable: true, Version: "1.1", Namespace: NamespacePublic,
		Description: "generate universally unique identifiers (UUIDs)"},
	{OID: 12922, Name: "pgcrypto", Trusted: true, Relocatable: true, Version: "1.3", Namespace: NamespacePublic,
		Description: "cryptographic functions"},
	// Their types are sqltypes.Citext and sqltypes.Hstore (extensionTypes
	// below), their functions in package builtins (ext_citext.go,
	// ext_hstore.go).
	{OID: 12926, Name: "citext", Trusted: true, Relocatable: true, Version: "1.6", Namespace: NamespacePublic,
		Description: "data type for case-insensitive character strings"},
	{OID: 12927, Name: "hstore", Trusted: true, Relocatable: true, Version: "1.8", Namespace: NamespacePublic,
		Description: "data type for storing sets of (key, value) pairs"},
	// Its functions and operators are in package builtins (ext_trgm.go),
	// set_limit in ext_trgm.go here; its thresholds are settings
	// (internal/guc/extensions.go).
	{OID: 12930, Name: "pg_trgm", Trusted: true, Relocatable: true, Version: "1.6", Namespace: NamespacePublic,
		Description: "text similarity measurement and index searching based on trigrams"},
	// Its gist operator classes of scalar types serve exclusion
	// constraints (planner/exclusion.go: btreeGistTypes); it has no
	// functions of its own that zproxy lists.
	{OID: 12932, Name: "btree_gist", Trusted: true, Relocatable: true, Version: "1.7", Namespace: NamespacePublic,
		Description: "support for indexing common datatypes in GiST"},
	// A subset of PostGIS 3.3: its types are sqltypes.Geometry and
	// sqltypes.Geography (extensionTypes below), its functions and
	// operators in package builtins (ext_postgis.go), its relations in
	// ext_postgis.go here.
	{OID: 12960, Name: "postgis", Trusted: false, Relocatable: false, Version: "3.3.2", Namespace: NamespacePublic,
		Description: "PostGIS geometry and geography spatial types and functions",
		Relations:   []string{"public.spatial_ref_sys", "public.geometry_columns", "public.geography_columns"}},
	// Its types are sqltypes.Ltree, sqltypes.Lquery and
	// sqltypes.Ltxtquery (extensionTypes below), its functions and
	// operators in package builtins (ext_ltree.go).
	{OID: 12980, Name: "ltree", Trusted: true, Relocatable: true, Version: "1.2", Namespace: NamespacePublic,
		Description: "data type for hierarchical tree-like structures"},
	// PL/pgSQL, which initdb installs in every database (its language
	// and handler functions are routines.go's).
	{OID: 13559, Name: "plpgsql", Trusted: true, Relocatable: false, Version: "1.0", Namespace: NamespaceCatalog,
		Description: "PL/pgSQL procedural language"},
}

// extensionTypes are the pg_type rows of the built-in extensions' types,
// in schema public as CREATE EXTENSION puts them, with the fixed OIDs
// sqltypes gives them (PostgreSQL assigns an extension's OIDs when it is
// created; zproxy's extensions are never created, so it keeps its own,
// in the range below 16384 that its built-in extensions use). Their
// input, output, receive and send functions get fixed OIDs next to them.
var extensionTypes = []pgType{
	{oid: sqltypes.CitextOID, name: "citext", len: -1, typtype: 'b', category: 'S', delim: ',', array: sqltypes.CitextArrayOID,
		in: proc{12944, "citextin"}, out: proc{12945, "citextout"}, recv: proc{12946, "citextrecv"}, send: proc{12947, "citextsend"},
		align: 'i', storage: 'x', collation: 100, subscript: "-", display: "citext"},
	{oid: sqltypes.CitextArrayOID, name: "_citext", len: -1, typtype: 'b', category: 'A', delim: ',', elem: sqltypes.CitextOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'i', storage: 'x', collation: 100, subscript: "array_subscript_handler", display: "citext[]"},
	{oid: sqltypes.HstoreOID, name: "hstore", len: -1, typtype: 'b', category: 'U', delim: ',', array: sqltypes.HstoreArrayOID,
		in: proc{12948, "hstore_in"}, out: proc{12949, "hstore_out"}, recv: proc{12950, "hstore_recv"}, send: proc{12951, "hstore_send"},
		align: 'i', storage: 'x', subscript: "hstore_subscript_handler", display: "hstore"},
	{oid: sqltypes.HstoreArrayOID, name: "_hstore", len: -1, typtype: 'b', category: 'A', delim: ',', elem: sqltypes.HstoreOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'i', storage: 'x', subscript: "array_subscript_handler", display: "hstore[]"},
	{oid: sqltypes.GeometryOID, name: "geometry", len: -1, typtype: 'b', category: 'U', delim: ':', array: sqltypes.GeometryArrayOID,
		in: proc{12965, "geometry_in"}, out: proc{12966, "geometry_out"}, recv: proc{12967, "geometry_recv"}, send: proc{12968, "geometry_send"},
		align: 'd', storage: 'm', subscript: "-", display: "geometry"},
	{oid: sqltypes.GeometryArrayOID, name: "_geometry", len: -1, typtype: 'b', category: 'A', delim: ':', elem: sqltypes.GeometryOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'd', storage: 'x', subscript: "array_subscript_handler", display: "geometry[]"},
	{oid: sqltypes.GeographyOID, name: "geography", len: -1, typtype: 'b', category: 'U', delim: ':', array: sqltypes.GeographyArrayOID,
		in: proc{12969, "geography_in"}, out: proc{12970, "geography_out"}, recv: proc{12971, "geography_recv"}, send: proc{12972, "geography_send"},
		align: 'd', storage: 'm', subscript: "-", display: "geography"},
	{oid: sqltypes.GeographyArrayOID, name: "_geography", len: -1, typtype: 'b', category: 'A', delim: ':', elem: sqltypes.GeographyOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'd', storage: 'x', subscript: "array_subscript_handler", display: "geography[]"},
	// box2d has no binary I/O (no receive or send function), as PostGIS's.
	{oid: sqltypes.Box2DOID, name: "box2d", len: 65, typtype: 'b', category: 'U', delim: ',', array: sqltypes.Box2DArrayOID,
		in: proc{12954, "box2d_in"}, out: proc{12955, "box2d_out"},
		align: 'd', storage: 'p', subscript: "-", display: "box2d"},
	{oid: sqltypes.Box2DArrayOID, name: "_box2d", len: -1, typtype: 'b', category: 'A', delim: ',', elem: sqltypes.Box2DOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'd', storage: 'x', subscript: "array_subscript_handler", display: "box2d[]"},
	{oid: sqltypes.LtreeOID, name: "ltree", len: -1, typtype: 'b', category: 'U', delim: ',', array: sqltypes.LtreeArrayOID,
		in: proc{12987, "ltree_in"}, out: proc{12988, "ltree_out"}, recv: proc{12989, "ltree_recv"}, send: proc{12990, "ltree_send"},
		align: 'i', storage: 'x', subscript: "-", display: "ltree"},
	{oid: sqltypes.LtreeArrayOID, name: "_ltree", len: -1, typtype: 'b', category: 'A', delim: ',', elem: sqltypes.LtreeOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'i', storage: 'x', subscript: "array_subscript_handler", display: "ltree[]"},
	{oid: sqltypes.LqueryOID, name: "lquery", len: -1, typtype: 'b', category: 'U', delim: ',', array: sqltypes.LqueryArrayOID,
		in: proc{12991, "lquery_in"}, out: proc{12992, "lquery_out"}, recv: proc{12993, "lquery_recv"}, send: proc{12994, "lquery_send"},
		align: 'i', storage: 'x', subscript: "-", display: "lquery"},
	{oid: sqltypes.LqueryArrayOID, name: "_lquery", len: -1, typtype: 'b', category: 'A', delim: ',', elem: sqltypes.LqueryOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'i', storage: 'x', subscript: "array_subscript_handler", display: "lquery[]"},
	{oid: sqltypes.LtxtqueryOID, name: "ltxtquery", len: -1, typtype: 'b', category: 'U', delim: ',', array: sqltypes.LtxtqueryArrayOID,
		in: proc{12995, "ltxtq_in"}, out: proc{12996, "ltxtq_out"}, recv: proc{12997, "ltxtq_recv"}, send: proc{12998, "ltxtq_send"},
		align: 'i', storage: 'x', subscript: "-", display: "ltxtquery"},
	{oid: sqltypes.LtxtqueryArrayOID, name: "_ltxtquery", len: -1, typtype: 'b', category: 'A', delim: ',', elem: sqltypes.LtxtqueryOID,
		in: proc{750, "array_in"}, out: proc{751, "array_out"}, recv: proc{2400, "array_recv"}, send: proc{2401, "array_send"},
		align: 'i', storage: 'x', subscript: "array_subscript_handler", display: "ltxtquery[]"},
}

// typeExtension names the extension of the extension types not named
// after theirs.
var typeExtension = map[string]string{"geometry": "postgis", "geography": "postgis", "box2d": "postgis", "lquery": "ltree", "ltxtquery": "ltree"}

// FindExtension returns the built-in extension of that name.
func FindExtension(name string) (Extension, bool) {
	for _, x := range Extensions {
		if x.Name == name {
			return x, true
		}
	}
	return Extension{}, false
}

func init() {
	generate("pg_catalog.pg_extension", func(e *Env) []row {
		var out []row
		for _, x := range Extensions {
			owner := uint32(BootstrapOID)
			if e.Snap != nil {
				if r, ok := e.Snap.Extension(x.Name); ok && r.Owner != "" {
					owner = RoleOID(r.Owner)
				}
			}
			out = append(out, &pgExtensionRow{Oid: oidV(e.ExtensionOID(x)), Extname: nameV(x.Name), Extowner: oidV(owner),
				Extnamespace: oidV(x.Namespace), Extrelocatable: boolV(x.Relocatable), Extversion: textV(x.Version)})
		}
		return out
	})
	// Every built-in extension is installed, at the one version zproxy
	// has of it (the views join pg_extension as PostgreSQL's do).
	generate("pg_catalog.pg_available_extensions", func(*Env) []row {
		var out []row
		for _, x := range Extensions {
			out = append(out, &pgAvailableExtensionsRow{Name: nameV(x.Name), DefaultVersion: textV(x.Version), InstalledVersion: textV(x.Version),
				Comment: textV(x.Description)})
		}
		return out
	})
	generate("pg_catalog.pg_available_extension_versions", func(*Env) []row {
		var out []row
		for _, x := range Extensions {
			out = append(out, &pgAvailableExtensionVersionsRow{Name: nameV(x.Name), Version: textV(x.Version), Installed: boolV(true),
				Superuser: boolV(true), Trusted: boolV(x.Trusted), Relocatable: boolV(x.Relocatable), Schema: nullV, Requires: nullV,
				Comment: textV(x.Description)})
		}
		return out
	})
	// The functions behind the views: an extension's control file as the
	// server has it (zproxy's are built in), installed or not.
	Register("pg_available_extensions", Overload{Result: Returns(sqltypes.TypeText), ResultPseudo: Record, Volatility: Stable,
		Set: &SetFunc{Columns: []SetColumn{{Name: "name", Type: sqltypes.TypeName}, {Name: "default_version", Type: sqltypes.TypeText},
			{Name: "comment", Type: sqltypes.TypeText}},
			Rows: func(*Context, []sqltypes.Value) (SetRows, error) {
				var rows [][]sqltypes.Value
				for _, x := range Extensions {
					rows = append(rows, []sqltypes.Value{nameV(x.Name), textV(x.Version), textV(x.Description)})
				}
				return Table(rows), nil
			}}})
	Register("pg_available_extension_versions", Overload{Result: Returns(sqltypes.TypeText), ResultPseudo: Record, Volatility: Stable,
		Set: &SetFunc{Columns: []SetColumn{{Name: "name", Type: sqltypes.TypeName}, {Name: "version", Type: sqltypes.TypeText},
			{Name: "superuser", Type: sqltypes.TypeBool}, {Name: "trusted", Type: sqltypes.TypeBool}, {Name: "relocatable", Type: sqltypes.TypeBool},
			{Name: "schema", Type: sqltypes.TypeName}, {Name: "requires", Type: sqltypes.ArrayOf(sqltypes.TypeName)}, {Name: "comment", Type: sqltypes.TypeText}},
			Rows: func(*Context, []sqltypes.Value) (SetRows, error) {
				var rows [][]sqltypes.Value
				for _, x := range Extensions {
					rows = append(rows, []sqltypes.Value{nameV(x.Name), textV(x.Version), boolV(true), boolV(x.Trusted), boolV(x.Relocatable),
						sqltypes.Null, sqltypes.Null, textV(x.Description)})
				}
				return Table(rows), nil
			}}})
}

// extensionDepends are the pg_depend rows tying each extension's
// relations to it (deptype e).
func (e *Env) extensionDepends() []row {
	var out []row
	member := func(class, oid uint32, x Extension) {
		out = append(out, &pgDependRow{Classid: oidV(class), Objid: oidV(oid), Objsubid: intV(0),
			Refclassid: oidV(pgExtensionOID), Refobjid: oidV(e.ExtensionOID(x)), Refobjsubid: intV(0), Deptype: charV('e')})
	}
	for _, x := range Extensions {
		for _, rel := range x.Relations {
			member(pgClassOID, relationInfo[rel].oid, x)
		}
		// An extension's types are its members as CREATE EXTENSION makes
		// them (their array types depend on them, not on it): pg_dump
		// writes CREATE EXTENSION for them, never CREATE TYPE.
		for _, t := range extensionTypes {
			if t.name == x.Name || typeExtension[t.name] == x.Name {
				member(pgTypeOID, t.oid, x)
			}
		}
	}
	return out
}

// installedExtensionOIDBase starts the OIDs of the extensions a database
// created or uses (ExtensionOID), in a range no stored object's OID
// reaches (user objects count up from FirstNormalOID by catalog version;
// a session's hypothetical indexes start at 0x7f000000).
const installedExtensionOIDBase = 0x7e000000

// ExtensionOID is x's OID in this database. An extension the database
// neither created (CREATE EXTENSION) nor uses (ExtensionUser) keeps its
// OID below FirstNormalOID, so pg_dump takes it for part of the server
// and dumps neither it nor its members, as it does plpgsql. One it created
// or uses is listed above FirstNormalOID, so pg_dump writes CREATE
// EXTENSION IF NOT EXISTS for it ahead of the objects that need it, and
// the dump restores into PostgreSQL, where the extension's types and
// functions exist only once it is created.
func (e *Env) ExtensionOID(x Extension) uint32 {
	if e.Snap != nil && installedExtensions(e.Snap)[x.Name] {
		return installedExtensionOIDBase + x.OID
	}
	return x.OID
}

// installedExtensions are the built-in extensions snap's database created
// or uses, by name, computed once per snapshot.
func installedExtensions(snap *catalog.Snapshot) map[string]bool {
	if snap == nil {
		return nil
	}
	return snap.Memo(installedKey, func() any {
		out := map[string]bool{}
		for _, x := range Extensions {
			_, created := snap.Extension(x.Name)
			_, used := ExtensionUser(snap, x)
			out[x.Name] = created || used
		}
		return out
	}).(map[string]bool)
}

// relationExtension is the name of the built-in extension relation full
// (schema.name) belongs to, "" for none.
func relationExtension(full string) string {
	for _, x := range Extensions {
		if slices.Contains(x.Relations, full) {
			return x.Name
		}
	}
	return ""
}

// extensionByOID is the built-in extension with OID oid, under either of
// the OIDs ExtensionOID gives it.
func extensionByOID(oid uint32) (Extension, bool) {
	for _, x := range Extensions {
		if x.OID == oid || installedExtensionOIDBase+x.OID == oid {
			return x, true
		}
	}
	return Extension{}, false
}

// ExtensionUser describes the first object of snap's database that uses
// one of x's types, as PostgreSQL's DROP EXTENSION names a dependent
// ("column p of table g depends on type geometry"): a table's column, a
// user-defined type (a domain over it, a composite type's attribute) or a
// routine's parameter or result. ok is false when nothing does.
func ExtensionUser(snap *catalog.Snapshot, x Extension) (string, bool) {
	owned := map[uint32]string{}
	for _, t := range extensionTypes {
		if t.elem == 0 && (t.name == x.Name || typeExtension[t.name] == x.Name) {
			owned[t.oid] = t.name
		}
	}
	if len(owned) == 0 {
		return "", false
	}
	// uses is the extension type t is, or holds as its elements or
	// domain base.
	var uses func(t sqltypes.Type) (string, bool)
	uses = func(t sqltypes.Type) (string, bool) {
		switch {
		case t.IsArray():
			return uses(t.ElemType())
		case t.Domain != nil:
			return uses(t.Domain.Base)
		}
		name, ok := owned[t.OID()]
		return name, ok
	}
	for _, t := range snap.Tables() {
		for _, c := range t.Columns {
			if name, ok := uses(c.Type); ok && !c.Hidden {
				return fmt.Sprintf("column %s of table %s depends on type %s", c.Name, t.BareName(), name), true
			}
		}
	}
	for _, u := range snap.UserTypes() {
		var attrs []sqltypes.Type
		switch {
		case u.Domain != nil:
			attrs = append(attrs, u.Domain.Base)
		case u.Composite != nil:
			for _, f := range u.Composite.Fields {
				attrs = append(attrs, f.Type)
			}
		}
		for _, a := range attrs {
			if name, ok := uses(a); ok {
				return fmt.Sprintf("type %s depends on type %s", u.Name, name), true
			}
		}
	}
	for _, f := range snap.AllFunctions() {
		types := []sqltypes.Type{f.Result}
		var args []string
		for _, p := range f.Params {
			types = append(types, p.Type)
			if p.IsInput() {
				args = append(args, p.Type.String())
			}
		}
		for _, a := range types {
			if name, ok := uses(a); ok {
				kind := "function"
				if f.Procedure() {
					kind = "procedure"
				}
				return fmt.Sprintf("%s %s(%s) depends on type %s", kind, f.Name, strings.Join(args, ", "), name), true
			}
		}
	}
	return "", false
}
