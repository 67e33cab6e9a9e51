package pgcatalog

// Extension is an extension zproxy has built in: always installed, never
// created or dropped (CREATE EXTENSION of one is 42710, as for an
// extension PostgreSQL already has).
type Extension struct {
	OID       uint32
	Name      string
	Version   string
	Namespace uint32 // the schema of its objects
}

// Extensions are the built-in extensions pg_extension lists: tools look
// for pg_stat_statements there before they read it.
var Extensions = []Extension{
	{OID: 12920, Name: "pg_stat_statements", Version: "1.10", Namespace: NamespaceCatalog},
}

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
	generate("pg_catalog.pg_extension", func(*Env) []row {
		var out []row
		for _, x := range Extensions {
			out = append(out, row{"oid": oidV(x.OID), "extname": nameV(x.Name), "extowner": oidV(BootstrapOID),
				"extnamespace": oidV(x.Namespace), "extrelocatable": boolV(true), "extversion": textV(x.Version)})
		}
		return out
	})
}
