package pgcatalog

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/tsearch"
)

// The text search objects: the default parser, the simple and snowball
// templates, the simple and english_stem dictionaries and the simple and
// english configurations with their token type maps, as PostgreSQL 15's
// initdb makes them (OIDs above 13000 are the ones initdb gave this
// server's english objects). internal/tsearch implements them.

// The OIDs of the text search objects that are not configurations
// (sqltypes.TSConfigs has those).
const (
	tsSimpleTemplateOID   = 3727
	tsSnowballTemplateOID = 13150
	tsSimpleDictOID       = 3765
	tsEnglishStemDictOID  = 13163
)

func tsDictOID(d tsearch.Dictionary) uint32 {
	if d == tsearch.EnglishStem {
		return tsEnglishStemDictOID
	}
	return tsSimpleDictOID
}

func init() {
	generate("pg_catalog.pg_ts_parser", func(*Env) []row {
		return []row{&pgTsParserRow{Oid: oidV(tsearch.DefaultParserOID), Prsname: nameV("default"), Prsnamespace: oidV(NamespaceCatalog),
			Prsstart: regprocV(proc{3717, "prsd_start"}), Prstoken: regprocV(proc{3718, "prsd_nexttoken"}), Prsend: regprocV(proc{3719, "prsd_end"}),
			Prsheadline: regprocV(proc{3720, "prsd_headline"}), Prslextype: regprocV(proc{3721, "prsd_lextype"})}}
	})
	generate("pg_catalog.pg_ts_template", func(*Env) []row {
		return []row{
			&pgTsTemplateRow{Oid: oidV(tsSimpleTemplateOID), Tmplname: nameV("simple"), Tmplnamespace: oidV(NamespaceCatalog),
				Tmplinit: regprocV(proc{3725, "dsimple_init"}), Tmpllexize: regprocV(proc{3726, "dsimple_lexize"})},
			&pgTsTemplateRow{Oid: oidV(tsSnowballTemplateOID), Tmplname: nameV("snowball"), Tmplnamespace: oidV(NamespaceCatalog),
				Tmplinit: regprocV(proc{13148, "dsnowball_init"}), Tmpllexize: regprocV(proc{13149, "dsnowball_lexize"})},
		}
	})
	generate("pg_catalog.pg_ts_dict", func(*Env) []row {
		return []row{
			&pgTsDictRow{Oid: oidV(tsSimpleDictOID), Dictname: nameV("simple"), Dictnamespace: oidV(NamespaceCatalog), Dictowner: oidV(BootstrapOID),
				Dicttemplate: oidV(tsSimpleTemplateOID), Dictinitoption: sqltypes.Null},
			&pgTsDictRow{Oid: oidV(tsEnglishStemDictOID), Dictname: nameV("english_stem"), Dictnamespace: oidV(NamespaceCatalog), Dictowner: oidV(BootstrapOID),
				Dicttemplate: oidV(tsSnowballTemplateOID), Dictinitoption: textV("language = 'english', stopwords = 'english'")},
		}
	})
	configs := []*tsearch.Config{tsearch.SimpleConfig, tsearch.EnglishConfig}
	generate("pg_catalog.pg_ts_config", func(*Env) []row {
		var out []row
		for _, c := range configs {
			out = append(out, &pgTsConfigRow{Oid: oidV(c.OID), Cfgname: nameV(c.Name), Cfgnamespace: oidV(NamespaceCatalog),
				Cfgowner: oidV(BootstrapOID), Cfgparser: oidV(tsearch.DefaultParserOID)})
		}
		return out
	})
	generate("pg_catalog.pg_ts_config_map", func(*Env) []row {
		var out []row
		for _, c := range configs {
			for t := range tsearch.TokenTypes {
				if d := c.Dictionary(tsearch.TokenType(t + 1)); d != 0 {
					out = append(out, &pgTsConfigMapRow{Mapcfg: oidV(c.OID), Maptokentype: intV(int64(t + 1)), Mapseqno: intV(1), Mapdict: oidV(tsDictOID(d))})
				}
			}
		}
		return out
	})
}
