-- What GeoServer's PostGIS datastore sends (replayed from
-- /tmp/geoserver_report.md: GeoTools' PostGISDialect, JDBCDataStore,
-- HeuristicPrimaryKeyFinder, GeometryColumnEncoder, FilterToSqlHelper, and
-- pgJDBC's DatabaseMetaData queries) for the layers pois and zones: store
-- creation, publishing (feature type, SRID, dimension, primary key,
-- bounds), WMS GetMap and WFS GetFeature. pgJDBC binds parameters; here
-- they are inlined, as the simple query protocol sends them.

-- @ geoserver/S1.01 GeoServer [DBCP validation] JDBCDataStoreFactory/PostgisNGDataStoreFactory.getValidationQuery
select now()

-- @ geoserver/S1.02 GeoServer [pgJDBC startup param] extra_float_digits
SET extra_float_digits = 3

-- @ geoserver/S1.03 GeoServer PostGISDialect.getVersion (initializeConnection)
select PostGIS_Lib_Version()

-- @ geoserver/S1.04 GeoServer PostGISDialect.checkStandardConformingStrings (fallback query)
SHOW standard_conforming_strings

-- @ geoserver/S1.05 GeoServer [pgJDBC getTables(null,'public','%',[TABLE,VIEW,MATERIALIZED VIEW,PARTITIONED TABLE])] JDBCDataStore.createTypeNames + MetadataTablePrimaryKeyFinder (parameters inlined, as the simple query protocol sends them)
SELECT current_database() AS "TABLE_CAT", n.nspname AS "TABLE_SCHEM", c.relname AS "TABLE_NAME",  CASE n.nspname ~ '^pg_' OR n.nspname = 'information_schema'  WHEN true THEN CASE  WHEN n.nspname = 'pg_catalog' OR n.nspname = 'information_schema' THEN CASE c.relkind   WHEN 'r' THEN 'SYSTEM TABLE'   WHEN 'v' THEN 'SYSTEM VIEW'   WHEN 'i' THEN 'SYSTEM INDEX'   ELSE NULL   END  WHEN n.nspname = 'pg_toast' THEN CASE c.relkind   WHEN 'r' THEN 'SYSTEM TOAST TABLE'   WHEN 'i' THEN 'SYSTEM TOAST INDEX'   ELSE NULL   END  ELSE CASE c.relkind   WHEN 'r' THEN 'TEMPORARY TABLE'   WHEN 'p' THEN 'TEMPORARY TABLE'   WHEN 'i' THEN 'TEMPORARY INDEX'   WHEN 'S' THEN 'TEMPORARY SEQUENCE'   WHEN 'v' THEN 'TEMPORARY VIEW'   ELSE NULL   END  END  WHEN false THEN CASE c.relkind  WHEN 'r' THEN 'TABLE'  WHEN 'p' THEN 'PARTITIONED TABLE'  WHEN 'i' THEN 'INDEX'  WHEN 'P' then 'PARTITIONED INDEX'  WHEN 'S' THEN 'SEQUENCE'  WHEN 'v' THEN 'VIEW'  WHEN 'c' THEN 'TYPE'  WHEN 'f' THEN 'FOREIGN TABLE'  WHEN 'm' THEN 'MATERIALIZED VIEW'  ELSE NULL  END  ELSE NULL  END  AS "TABLE_TYPE", d.description AS "REMARKS",  '' as "TYPE_CAT", '' as "TYPE_SCHEM", '' as "TYPE_NAME", '' AS "SELF_REFERENCING_COL_NAME", '' AS "REF_GENERATION"  FROM pg_catalog.pg_namespace n, pg_catalog.pg_class c  LEFT JOIN pg_catalog.pg_description d ON (c.oid = d.objoid AND d.objsubid = 0  and d.classoid = 'pg_class'::regclass)  WHERE c.relnamespace = n.oid  AND n.nspname LIKE 'public' AND c.relname LIKE '%' AND (false  OR ( c.relkind = 'r' AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema' )  OR ( c.relkind = 'v' AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' )  OR ( c.relkind = 'm' )  OR ( c.relkind = 'p' AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema' ) )  ORDER BY "TABLE_TYPE","TABLE_SCHEM","TABLE_NAME"

-- @ geoserver/S1.06 GeoServer PostgisNGDataStoreFactory.createDataStore (only with 'create database' option)
select PostGIS_version()

-- @ geoserver/S2.pois.01 GeoServer [pgJDBC getColumns(null,'public','pois','%')] JDBCFeatureSource.buildFeatureType (parameters inlined, as the simple query protocol sends them)
SELECT * FROM (SELECT current_database() AS current_database, n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull  OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'pois') c WHERE true  AND attname LIKE '%' ORDER BY nspname,c.relname,attnum

-- @ geoserver/S2.pois.02 GeoServer [pgJDBC TypeInfoCache lookup of geometry oid -> getSQLType]
SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype, typname, pg_type.oid   FROM pg_catalog.pg_type   LEFT JOIN (select ns.oid as nspoid, ns.nspname, r.r           from pg_namespace as ns           join ( select s.r, (current_schemas(false))[s.r] as nspname                    from generate_series(1, array_upper(current_schemas(false), 1)) as s(r) ) as r          using ( nspname )        ) as sp     ON sp.nspoid = typnamespace  WHERE pg_type.oid = (SELECT 'geometry'::regtype::oid) ORDER BY sp.r, pg_type.oid DESC

-- @ geoserver/S2.pois.03 GeoServer PostGISDialect.lookupGeometryType (getMapping)
SELECT TYPE FROM geometry_columns WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'pois' AND f_geometry_column = 'geom'

-- @ geoserver/S2.pois.04 GeoServer PostGISDialect.handleUserDefinedType
SELECT udt_name FROM information_schema.columns  WHERE table_schema = 'public'    AND table_name = 'pois'    AND column_name = 'geom'

-- @ geoserver/S2.pois.05 GeoServer PostGISDialect.getGeometrySRID (geography_columns)
SELECT SRID FROM GEOGRAPHY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'pois' AND F_GEOGRAPHY_COLUMN = 'geom'

-- @ geoserver/S2.pois.06 GeoServer PostGISDialect.getGeometrySRID (geometry_columns)
SELECT SRID FROM GEOMETRY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'pois' AND F_GEOMETRY_COLUMN = 'geom'

-- @ geoserver/S2.pois.07 GeoServer PostGISDialect.getGeometrySRID (fallback, srid null/0)
SELECT ST_SRID("geom") FROM "public"."pois" WHERE "geom" IS NOT NULL LIMIT 1

-- @ geoserver/S2.pois.08 GeoServer PostGISDialect.createCRS
SELECT AUTH_NAME, AUTH_SRID, SRTEXT FROM SPATIAL_REF_SYS WHERE SRID = 4326

-- @ geoserver/S2.pois.09 GeoServer PostGISDialect.getGeometryDimension (geography_columns)
SELECT COORD_DIMENSION FROM GEOGRAPHY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'pois' AND F_GEOGRAPHY_COLUMN = 'geom'

-- @ geoserver/S2.pois.10 GeoServer PostGISDialect.getGeometryDimension (geometry_columns)
SELECT COORD_DIMENSION FROM GEOMETRY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'pois' AND F_GEOMETRY_COLUMN = 'geom'

-- @ geoserver/S2.pois.11 GeoServer PostGISDialect.getDimensionFromFirstGeo (fallback)
SELECT ST_NDIMS("geom"::geometry) FROM "public"."pois" WHERE "geom" IS NOT NULL LIMIT 1

-- @ geoserver/S2.pois.12 GeoServer [pgJDBC getPrimaryKeys(null,'public','pois')] HeuristicPrimaryKeyFinder.getPrimaryKey (parameters inlined, as the simple query protocol sends them)
SELECT        result.TABLE_CAT AS "TABLE_CAT",        result.TABLE_SCHEM AS "TABLE_SCHEM",        result.TABLE_NAME AS "TABLE_NAME",        result.COLUMN_NAME AS "COLUMN_NAME",        result.KEY_SEQ AS "KEY_SEQ",        result.PK_NAME AS "PK_NAME"FROM      (SELECT current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM,   ct.relname AS TABLE_NAME, a.attname AS COLUMN_NAME,   (information_schema._pg_expandarray(con.conkey)).n AS KEY_SEQ, con.conname AS PK_NAME,   information_schema._pg_expandarray(con.conkey) AS KEYS, a.attnum AS A_ATTNUM FROM pg_catalog.pg_constraint con   JOIN pg_catalog.pg_class ct ON (con.conrelid = ct.oid)   JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)   JOIN pg_catalog.pg_attribute a ON (a.attrelid = ct.oid) WHERE con.contype = 'p'  AND n.nspname = 'public' AND ct.relname = 'pois' ) result where  result.A_ATTNUM = (result.KEYS).x  ORDER BY result.table_name, result.pk_name, result.key_seq

-- @ geoserver/S2.pois.13 GeoServer [pgJDBC getColumns(null,'public','pois','id')] HeuristicPrimaryKeyFinder.createPrimaryKey (parameters inlined, as the simple query protocol sends them)
SELECT * FROM (SELECT current_database() AS current_database, n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull  OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'pois') c WHERE true  AND attname LIKE 'id' ORDER BY nspname,c.relname,attnum

-- @ geoserver/S2.pois.14 GeoServer HeuristicPrimaryKeyFinder.createPrimaryKey (+ ResultSetMetaData.isAutoIncrement)
SELECT "id" FROM "public"."pois" WHERE 0=1

-- @ geoserver/S2.pois.15 GeoServer PostGISDialect.getSequenceForColumn
SELECT pg_get_serial_sequence('"public"."pois"', 'id')

-- @ geoserver/S2.pois.16 GeoServer [pgJDBC getTables(null,'public','pois',[VIEW])] JDBCDataStore.isView (parameters inlined, as the simple query protocol sends them)
SELECT current_database() AS "TABLE_CAT", n.nspname AS "TABLE_SCHEM", c.relname AS "TABLE_NAME",  CASE n.nspname ~ '^pg_' OR n.nspname = 'information_schema'  WHEN true THEN CASE  WHEN n.nspname = 'pg_catalog' OR n.nspname = 'information_schema' THEN CASE c.relkind   WHEN 'r' THEN 'SYSTEM TABLE'   WHEN 'v' THEN 'SYSTEM VIEW'   WHEN 'i' THEN 'SYSTEM INDEX'   ELSE NULL   END  WHEN n.nspname = 'pg_toast' THEN CASE c.relkind   WHEN 'r' THEN 'SYSTEM TOAST TABLE'   WHEN 'i' THEN 'SYSTEM TOAST INDEX'   ELSE NULL   END  ELSE CASE c.relkind   WHEN 'r' THEN 'TEMPORARY TABLE'   WHEN 'p' THEN 'TEMPORARY TABLE'   WHEN 'i' THEN 'TEMPORARY INDEX'   WHEN 'S' THEN 'TEMPORARY SEQUENCE'   WHEN 'v' THEN 'TEMPORARY VIEW'   ELSE NULL   END  END  WHEN false THEN CASE c.relkind  WHEN 'r' THEN 'TABLE'  WHEN 'p' THEN 'PARTITIONED TABLE'  WHEN 'i' THEN 'INDEX'  WHEN 'P' then 'PARTITIONED INDEX'  WHEN 'S' THEN 'SEQUENCE'  WHEN 'v' THEN 'VIEW'  WHEN 'c' THEN 'TYPE'  WHEN 'f' THEN 'FOREIGN TABLE'  WHEN 'm' THEN 'MATERIALIZED VIEW'  ELSE NULL  END  ELSE NULL  END  AS "TABLE_TYPE", d.description AS "REMARKS",  '' as "TYPE_CAT", '' as "TYPE_SCHEM", '' as "TYPE_NAME", '' AS "SELF_REFERENCING_COL_NAME", '' AS "REF_GENERATION"  FROM pg_catalog.pg_namespace n, pg_catalog.pg_class c  LEFT JOIN pg_catalog.pg_description d ON (c.oid = d.objoid AND d.objsubid = 0  and d.classoid = 'pg_class'::regclass)  WHERE c.relnamespace = n.oid  AND n.nspname LIKE 'public' AND c.relname LIKE 'pois' AND (false  OR ( c.relkind = 'v' AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' ) )  ORDER BY "TABLE_TYPE","TABLE_SCHEM","TABLE_NAME"

-- @ geoserver/S2.pois.17 GeoServer PostGISDialect.getOptimizedBounds (estimated extents ON)
select ST_AsText(ST_Force2D(ST_Envelope(ST_EstimatedExtent('public', 'pois', 'geom'))))

-- @ geoserver/S2.pois.18 GeoServer JDBCDataStore.selectBoundsSQL + PostGISDialect.encodeGeometryEnvelope (estimated extents OFF, or fallback)
SELECT ST_AsText(ST_Force2D(ST_Envelope(ST_Extent("geom"::geometry)))) FROM "public"."pois"

-- @ geoserver/S2.zones.01 GeoServer [pgJDBC getColumns(null,'public','zones','%')] JDBCFeatureSource.buildFeatureType (parameters inlined, as the simple query protocol sends them)
SELECT * FROM (SELECT current_database() AS current_database, n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull  OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'zones') c WHERE true  AND attname LIKE '%' ORDER BY nspname,c.relname,attnum

-- @ geoserver/S2.zones.02 GeoServer [pgJDBC TypeInfoCache lookup of geometry oid -> getSQLType]
SELECT typinput='pg_catalog.array_in'::regproc as is_array, typtype, typname, pg_type.oid   FROM pg_catalog.pg_type   LEFT JOIN (select ns.oid as nspoid, ns.nspname, r.r           from pg_namespace as ns           join ( select s.r, (current_schemas(false))[s.r] as nspname                    from generate_series(1, array_upper(current_schemas(false), 1)) as s(r) ) as r          using ( nspname )        ) as sp     ON sp.nspoid = typnamespace  WHERE pg_type.oid = (SELECT 'geometry'::regtype::oid) ORDER BY sp.r, pg_type.oid DESC

-- @ geoserver/S2.zones.03 GeoServer PostGISDialect.lookupGeometryType (getMapping)
SELECT TYPE FROM geometry_columns WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'zones' AND f_geometry_column = 'area'

-- @ geoserver/S2.zones.04 GeoServer PostGISDialect.handleUserDefinedType
SELECT udt_name FROM information_schema.columns  WHERE table_schema = 'public'    AND table_name = 'zones'    AND column_name = 'area'

-- @ geoserver/S2.zones.05 GeoServer PostGISDialect.getGeometrySRID (geography_columns)
SELECT SRID FROM GEOGRAPHY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'zones' AND F_GEOGRAPHY_COLUMN = 'area'

-- @ geoserver/S2.zones.06 GeoServer PostGISDialect.getGeometrySRID (geometry_columns)
SELECT SRID FROM GEOMETRY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'zones' AND F_GEOMETRY_COLUMN = 'area'

-- @ geoserver/S2.zones.07 GeoServer PostGISDialect.getGeometrySRID (fallback, srid null/0)
SELECT ST_SRID("area") FROM "public"."zones" WHERE "area" IS NOT NULL LIMIT 1

-- @ geoserver/S2.zones.08 GeoServer PostGISDialect.createCRS
SELECT AUTH_NAME, AUTH_SRID, SRTEXT FROM SPATIAL_REF_SYS WHERE SRID = 4326

-- @ geoserver/S2.zones.09 GeoServer PostGISDialect.getGeometryDimension (geography_columns)
SELECT COORD_DIMENSION FROM GEOGRAPHY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'zones' AND F_GEOGRAPHY_COLUMN = 'area'

-- @ geoserver/S2.zones.10 GeoServer PostGISDialect.getGeometryDimension (geometry_columns)
SELECT COORD_DIMENSION FROM GEOMETRY_COLUMNS WHERE F_TABLE_SCHEMA = 'public' AND F_TABLE_NAME = 'zones' AND F_GEOMETRY_COLUMN = 'area'

-- @ geoserver/S2.zones.11 GeoServer PostGISDialect.getDimensionFromFirstGeo (fallback)
SELECT ST_NDIMS("area"::geometry) FROM "public"."zones" WHERE "area" IS NOT NULL LIMIT 1

-- @ geoserver/S2.zones.12 GeoServer [pgJDBC getPrimaryKeys(null,'public','zones')] HeuristicPrimaryKeyFinder.getPrimaryKey (parameters inlined, as the simple query protocol sends them)
SELECT        result.TABLE_CAT AS "TABLE_CAT",        result.TABLE_SCHEM AS "TABLE_SCHEM",        result.TABLE_NAME AS "TABLE_NAME",        result.COLUMN_NAME AS "COLUMN_NAME",        result.KEY_SEQ AS "KEY_SEQ",        result.PK_NAME AS "PK_NAME"FROM      (SELECT current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM,   ct.relname AS TABLE_NAME, a.attname AS COLUMN_NAME,   (information_schema._pg_expandarray(con.conkey)).n AS KEY_SEQ, con.conname AS PK_NAME,   information_schema._pg_expandarray(con.conkey) AS KEYS, a.attnum AS A_ATTNUM FROM pg_catalog.pg_constraint con   JOIN pg_catalog.pg_class ct ON (con.conrelid = ct.oid)   JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)   JOIN pg_catalog.pg_attribute a ON (a.attrelid = ct.oid) WHERE con.contype = 'p'  AND n.nspname = 'public' AND ct.relname = 'zones' ) result where  result.A_ATTNUM = (result.KEYS).x  ORDER BY result.table_name, result.pk_name, result.key_seq

-- @ geoserver/S2.zones.13 GeoServer [pgJDBC getColumns(null,'public','zones','id')] HeuristicPrimaryKeyFinder.createPrimaryKey (parameters inlined, as the simple query protocol sends them)
SELECT * FROM (SELECT current_database() AS current_database, n.nspname,c.relname,a.attname,a.atttypid,a.attnotnull  OR (t.typtype = 'd' AND t.typnotnull) AS attnotnull,a.atttypmod,a.attlen,t.typtypmod,row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum) AS attnum, nullif(a.attidentity, '') as attidentity,nullif(a.attgenerated, '') as attgenerated,pg_catalog.pg_get_expr(def.adbin, def.adrelid) AS adsrc,dsc.description,t.typbasetype,t.typtype  FROM pg_catalog.pg_namespace n  JOIN pg_catalog.pg_class c ON (c.relnamespace = n.oid)  JOIN pg_catalog.pg_attribute a ON (a.attrelid=c.oid)  JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid)  LEFT JOIN pg_catalog.pg_attrdef def ON (a.attrelid=def.adrelid AND a.attnum = def.adnum)  LEFT JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)  LEFT JOIN pg_catalog.pg_class dc ON (dc.oid=dsc.classoid AND dc.relname='pg_class')  LEFT JOIN pg_catalog.pg_namespace dn ON (dc.relnamespace=dn.oid AND dn.nspname='pg_catalog')  WHERE c.relkind in ('r','p','v','f','m') and a.attnum > 0 AND NOT a.attisdropped  AND n.nspname LIKE 'public' AND c.relname LIKE 'zones') c WHERE true  AND attname LIKE 'id' ORDER BY nspname,c.relname,attnum

-- @ geoserver/S2.zones.14 GeoServer HeuristicPrimaryKeyFinder.createPrimaryKey (+ ResultSetMetaData.isAutoIncrement)
SELECT "id" FROM "public"."zones" WHERE 0=1

-- @ geoserver/S2.zones.15 GeoServer PostGISDialect.getSequenceForColumn
SELECT pg_get_serial_sequence('"public"."zones"', 'id')

-- @ geoserver/S2.zones.16 GeoServer [pgJDBC getTables(null,'public','zones',[VIEW])] JDBCDataStore.isView (parameters inlined, as the simple query protocol sends them)
SELECT current_database() AS "TABLE_CAT", n.nspname AS "TABLE_SCHEM", c.relname AS "TABLE_NAME",  CASE n.nspname ~ '^pg_' OR n.nspname = 'information_schema'  WHEN true THEN CASE  WHEN n.nspname = 'pg_catalog' OR n.nspname = 'information_schema' THEN CASE c.relkind   WHEN 'r' THEN 'SYSTEM TABLE'   WHEN 'v' THEN 'SYSTEM VIEW'   WHEN 'i' THEN 'SYSTEM INDEX'   ELSE NULL   END  WHEN n.nspname = 'pg_toast' THEN CASE c.relkind   WHEN 'r' THEN 'SYSTEM TOAST TABLE'   WHEN 'i' THEN 'SYSTEM TOAST INDEX'   ELSE NULL   END  ELSE CASE c.relkind   WHEN 'r' THEN 'TEMPORARY TABLE'   WHEN 'p' THEN 'TEMPORARY TABLE'   WHEN 'i' THEN 'TEMPORARY INDEX'   WHEN 'S' THEN 'TEMPORARY SEQUENCE'   WHEN 'v' THEN 'TEMPORARY VIEW'   ELSE NULL   END  END  WHEN false THEN CASE c.relkind  WHEN 'r' THEN 'TABLE'  WHEN 'p' THEN 'PARTITIONED TABLE'  WHEN 'i' THEN 'INDEX'  WHEN 'P' then 'PARTITIONED INDEX'  WHEN 'S' THEN 'SEQUENCE'  WHEN 'v' THEN 'VIEW'  WHEN 'c' THEN 'TYPE'  WHEN 'f' THEN 'FOREIGN TABLE'  WHEN 'm' THEN 'MATERIALIZED VIEW'  ELSE NULL  END  ELSE NULL  END  AS "TABLE_TYPE", d.description AS "REMARKS",  '' as "TYPE_CAT", '' as "TYPE_SCHEM", '' as "TYPE_NAME", '' AS "SELF_REFERENCING_COL_NAME", '' AS "REF_GENERATION"  FROM pg_catalog.pg_namespace n, pg_catalog.pg_class c  LEFT JOIN pg_catalog.pg_description d ON (c.oid = d.objoid AND d.objsubid = 0  and d.classoid = 'pg_class'::regclass)  WHERE c.relnamespace = n.oid  AND n.nspname LIKE 'public' AND c.relname LIKE 'zones' AND (false  OR ( c.relkind = 'v' AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' ) )  ORDER BY "TABLE_TYPE","TABLE_SCHEM","TABLE_NAME"

-- @ geoserver/S2.zones.17 GeoServer PostGISDialect.getOptimizedBounds (estimated extents ON)
select ST_AsText(ST_Force2D(ST_Envelope(ST_EstimatedExtent('public', 'zones', 'area'))))

-- @ geoserver/S2.zones.18 GeoServer JDBCDataStore.selectBoundsSQL + PostGISDialect.encodeGeometryEnvelope (estimated extents OFF, or fallback)
SELECT ST_AsText(ST_Force2D(ST_Envelope(ST_Extent("area"::geometry)))) FROM "public"."zones"

-- @ geoserver/S2.pois.19 GeoServer [pgJDBC PgResultSetMetaData.fetchFieldMetaData for isAutoIncrement, uses table OID/attnum from RowDescription]
SELECT c.oid, a.attnum, a.attname, c.relname, n.nspname, a.attnotnull OR (t.typtype = 'd' AND t.typnotnull), a.attidentity != '' OR pg_catalog.pg_get_expr(d.adbin, d.adrelid) LIKE '%nextval(%' FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON (c.relnamespace = n.oid) JOIN pg_catalog.pg_attribute a ON (c.oid = a.attrelid) JOIN pg_catalog.pg_type t ON (a.atttypid = t.oid) LEFT JOIN pg_catalog.pg_attrdef d ON (d.adrelid = a.attrelid AND d.adnum = a.attnum) JOIN (SELECT 'public.pois'::regclass::oid AS oid , 1 AS attnum) vals ON (c.oid = vals.oid AND a.attnum = vals.attnum)

-- @ geoserver/S2.pois.20 GeoServer PostGISDialect.getLastAutoGeneratedValue / getNextSequenceValue (inserts only)
SELECT nextval('public.pois_id_seq')

-- @ geoserver/S3.pois.01 GeoServer WMS GetMap, loose bbox ON, simplification ON: JDBCDataStore.selectSQL + GeometryColumnEncoder.encodeSimplified + FilterToSqlHelper.visitComparisonSpatialOperator
SELECT "id",encode(ST_AsTWKB(ST_Simplify(ST_Force2D("geom"), 0.0078125, true),3), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.pois.02 GeoServer WMS GetMap, loose bbox OFF
SELECT "id",encode(ST_AsTWKB(ST_Simplify(ST_Force2D("geom"), 0.0078125, true),3), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.pois.03 GeoServer WMS GetMap with attribute used by style, SLD simplification via ST_SimplifyPreserveTopology (SIMPLIFICATION_METHOD=PRESERVETOPOLOGY)
SELECT "id","name","kind",encode(ST_AsTWKB(ST_SimplifyPreserveTopology(ST_Force2D("geom"), 0.0078125),3), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.pois.04 GeoServer WMS GetMap with FEATURE_2D hint and no simplification (e.g. GetFeatureInfo / non-simplifiable): GeometryColumnEncoder.encodeNotSimplified force2D
SELECT "id","name","kind",encode(ST_AsBinary(ST_Force2D("geom")), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.pois.05 GeoServer WFS GetFeature BBOX, loose bbox ON
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.pois.06 GeoServer WFS GetFeature BBOX, loose bbox OFF
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.pois.07 GeoServer WFS 2.0 numberMatched: JDBCDataStore.getCount / selectAggregateSQL
SELECT count(*) FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.pois.08 GeoServer WFS 2.0 paging (startIndex=10,count=20, natural order): JDBCDataStore.sort + PostGISDialect.applyLimitOffset
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)) ORDER BY "id" ASC LIMIT 20 OFFSET 10

-- @ geoserver/S3.pois.09 GeoServer WFS GetFeature, PREPARED STATEMENTS ON: PostGISPSDialect.prepareGeometryValue/setGeometryValue (XDR WKB bytea param) (parameters inlined, as the simple query protocol sends them)
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromWKB('\x00000000030000000100000005c0240000000000004044000000000000c02400000000000040468000000000000000000000000000404680000000000000000000000000004044000000000000c0240000000000004044000000000000'::bytea, 4326) AND ST_Intersects("geom", ST_GeomFromWKB('\x00000000030000000100000005c0240000000000004044000000000000c02400000000000040468000000000000000000000000000404680000000000000000000000000004044000000000000c0240000000000004044000000000000'::bytea, 4326))

-- @ geoserver/S3.pois.10 GeoServer WFS/WMS bounds of a BBOX-filtered query (e.g. WFS GetFeature envelope / layer group bounds): JDBCDataStore.selectBoundsSQL
SELECT ST_AsText(ST_Force2D(ST_Envelope(ST_Extent("geom"::geometry)))) FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.zones.01 GeoServer WMS GetMap, loose bbox ON, simplification ON: JDBCDataStore.selectSQL + GeometryColumnEncoder.encodeSimplified + FilterToSqlHelper.visitComparisonSpatialOperator
SELECT "id",encode(ST_AsTWKB(ST_Simplify(ST_Force2D("area"), 0.0078125, true),3), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.zones.02 GeoServer WMS GetMap, loose bbox OFF
SELECT "id",encode(ST_AsTWKB(ST_Simplify(ST_Force2D("area"), 0.0078125, true),3), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("area", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.zones.03 GeoServer WMS GetMap with attribute used by style, SLD simplification via ST_SimplifyPreserveTopology (SIMPLIFICATION_METHOD=PRESERVETOPOLOGY)
SELECT "id","label",encode(ST_AsTWKB(ST_SimplifyPreserveTopology(ST_Force2D("area"), 0.0078125),3), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.zones.04 GeoServer WMS GetMap with FEATURE_2D hint and no simplification (e.g. GetFeatureInfo / non-simplifiable): GeometryColumnEncoder.encodeNotSimplified force2D
SELECT "id","label",encode(ST_AsBinary(ST_Force2D("area")), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("area", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.zones.05 GeoServer WFS GetFeature BBOX, loose bbox ON
SELECT "id","label",encode(ST_AsEWKB("area"), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.zones.06 GeoServer WFS GetFeature BBOX, loose bbox OFF
SELECT "id","label",encode(ST_AsEWKB("area"), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("area", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.zones.07 GeoServer WFS 2.0 numberMatched: JDBCDataStore.getCount / selectAggregateSQL
SELECT count(*) FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("area", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.zones.08 GeoServer WFS 2.0 paging (startIndex=10,count=20, natural order): JDBCDataStore.sort + PostGISDialect.applyLimitOffset
SELECT "id","label",encode(ST_AsEWKB("area"), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("area", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)) ORDER BY "id" ASC LIMIT 20 OFFSET 10

-- @ geoserver/S3.zones.09 GeoServer WFS GetFeature, PREPARED STATEMENTS ON: PostGISPSDialect.prepareGeometryValue/setGeometryValue (XDR WKB bytea param) (parameters inlined, as the simple query protocol sends them)
SELECT "id","label",encode(ST_AsEWKB("area"), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromWKB('\x00000000030000000100000005c0240000000000004044000000000000c02400000000000040468000000000000000000000000000404680000000000000000000000000004044000000000000c0240000000000004044000000000000'::bytea, 4326) AND ST_Intersects("area", ST_GeomFromWKB('\x00000000030000000100000005c0240000000000004044000000000000c02400000000000040468000000000000000000000000000404680000000000000000000000000004044000000000000c0240000000000004044000000000000'::bytea, 4326))

-- @ geoserver/S3.zones.10 GeoServer WFS/WMS bounds of a BBOX-filtered query (e.g. WFS GetFeature envelope / layer group bounds): JDBCDataStore.selectBoundsSQL
SELECT ST_AsText(ST_Force2D(ST_Envelope(ST_Extent("area"::geometry)))) FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Intersects("area", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326))

-- @ geoserver/S3.x.01 GeoServer WFS DWithin filter: FilterToSqlHelper.visitDistanceSpatialOperator
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE ST_DWithin("geom", ST_GeomFromText('POINT (0 45)', 4326), 1.0)

-- @ geoserver/S3.x.02 GeoServer WFS Intersects with polygon literal (non-bbox spatial op)
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-2 42, 2 42, 3 46, -1 48, -3 45, -2 42))', 4326) AND ST_Intersects("geom", ST_GeomFromText('POLYGON ((-2 42, 2 42, 3 46, -1 48, -3 45, -2 42))', 4326))

-- @ geoserver/S3.x.03 GeoServer WFS Within / Contains (swapped) + Disjoint
SELECT count(*) FROM "public"."pois" WHERE "geom" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326) AND ST_Within("geom", ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)) AND NOT (ST_Intersects("geom", ST_GeomFromText('POINT (0 45)', 4326)))

-- @ geoserver/S3.x.04 GeoServer CQL filter with encode functions ON (strToLowerCase, strLength, strConcat, strSubstring, area)
SELECT "id","label",encode(ST_AsEWKB("area"), 'base64') as "area" FROM "public"."zones" WHERE (lower("label") = 'z1' OR char_length("label") = 2) AND ST_Area("area") > 20 AND ("label" || 'x') LIKE 'z%' AND substr("label", 1 + 1, (2 - 1)) = '1'

-- @ geoserver/S3.x.05 GeoServer CQL filter LIKE case-insensitive on number column: PostgisFilterToSQL.processLikeLeftOperand
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE  UPPER("kind"::text) LIKE '3' AND  UPPER("name") LIKE 'POI 1%'

-- @ geoserver/S3.x.06 GeoServer Geometry simplification on polygons guarded by ST_HasArc (curved geometry type binding Geometry)
SELECT "id",encode(ST_AsBinary(CASE WHEN ST_HasArc("area") THEN "area" ELSE ST_Simplify(ST_Force2D("area"), 0.5, true) END), 'base64') as "area" FROM "public"."zones" WHERE "area" && ST_GeomFromText('POLYGON ((-10 40, -10 45, 0 45, 0 40, -10 40))', 4326)

-- @ geoserver/S3.x.07 GeoServer 3D BBOX (BBOX3D filter)
SELECT count(*) FROM "public"."pois" WHERE "geom" &&& ST_Makeline(ST_MakePoint(-10.0,40.0,0.0), ST_MakePoint(0.0,45.0,1.0))

-- @ geoserver/S3.x.08 GeoServer ST_EstimatedExtent, 2-arg form (no schema)
select ST_AsText(ST_Force2D(ST_Envelope(ST_EstimatedExtent('pois', 'geom'))))

-- @ geoserver/S3.x.09 GeoServer Old-PostGIS (<2.1) function names, used only if PostGIS_Lib_Version() reports < 2.1
select ST_AsText(ST_Force_2D(ST_Envelope(ST_Estimated_Extent('public', 'pois', 'geom'))))

-- @ geoserver/S3.x.10 GeoServer PS mode: literal in non-bbox filter via PreparedFilterToSQL, text/int params (parameters inlined, as the simple query protocol sends them)
SELECT "id","name","kind",encode(ST_AsEWKB("geom"), 'base64') as "geom" FROM "public"."pois" WHERE ("name" = 'poi 7' OR "kind" = 2) ORDER BY "id" LIMIT 5
