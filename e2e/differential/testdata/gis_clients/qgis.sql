-- What QGIS's PostgreSQL provider sends (replayed from /tmp/qgis_report.md:
-- qgspostgresconn.cpp, qgspostgresprovider.cpp,
-- qgspostgresfeatureiterator.cpp), in the order it sends it for the layers
-- "public"."pois" (points) and "public"."zones" (polygons). Each entry is
-- one simple query message (as PQexec sends it; some are several
-- statements). {{pois_oid}} and {{pois_pkidx}} are the OIDs QGIS read
-- before, each server's own.

-- @ qgis/S1.1 QGIS QgsPostgresConn::postgisVersion: conn: postgisVersion()
SELECT postgis_version()

-- @ qgis/S1.2 QGIS QgsPostgresConn::postgisVersion: conn: GEOS/PROJ availability
SELECT postgis_geos_version(), postgis_proj_version()

-- @ qgis/S1.3 QGIS QgsPostgresConn::postgisVersion: conn: topology check
SELECT has_schema_privilege(n.oid, 'usage') AND has_table_privilege(t.oid, 'select') AND has_table_privilege(l.oid, 'select') FROM pg_namespace n, pg_class t, pg_class l WHERE n.nspname = 'topology' AND t.relnamespace = n.oid AND l.relnamespace = n.oid AND t.relname = 'topology' AND l.relname = 'layer'

-- @ qgis/S1.4 QGIS QgsPostgresConn::postgisVersion: conn: pointcloud check
SELECT has_table_privilege(c.oid, 'select') AND has_table_privilege(f.oid, 'select') FROM pg_class c, pg_class f, pg_namespace n, pg_extension e WHERE c.relnamespace = n.oid AND c.relname = 'pointcloud_columns' AND f.relnamespace = n.oid AND f.relname = 'pointcloud_formats' AND n.oid = e.extnamespace AND e.extname = 'pointcloud'

-- @ qgis/S1.5 QGIS QgsPostgresConn::postgisVersion: conn: raster check
SELECT has_table_privilege(c.oid, 'select') FROM pg_class c, pg_namespace n, pg_type t WHERE c.relnamespace = n.oid AND n.oid = t.typnamespace AND c.relname = 'raster_columns' AND t.typname = 'raster'

-- @ qgis/S1.6 QGIS QgsPostgresConn::QgsPostgresConn: conn: session settings, one multi-statement PQexec
SET extra_float_digits=3;SET application_name='QGIS 3.41.0-Master';SET datestyle='ISO';SET client_min_messages to error;

-- @ qgis/S1.7 QGIS QgsPostgresConn::deduceEndian: conn: deduceEndian (only sent if server_version < 7.4; included for completeness)
SELECT regclass('pg_class')::oid AS oidselect;BEGIN;DECLARE oidcursor BINARY CURSOR FOR SELECT regclass('pg_class')::oid AS oidbinarycursor;FETCH FORWARD 1 FROM oidcursor;CLOSE oidcursor;COMMIT;

-- @ qgis/S1.8 QGIS QgsPostgresConn::currentDatabase: conn: currentDatabase()
SELECT current_database()

-- @ qgis/S2.1 QGIS QgsPostgresConn::getSchemas: list: getSchemas
SELECT nspname, pg_get_userbyid(nspowner), pg_catalog.obj_description(oid) FROM pg_namespace WHERE nspname !~ '^pg_' AND nspname != 'information_schema' ORDER BY nspname

-- @ qgis/S2.2 QGIS QgsPostgresConn::getTableInfo: list: getTableInfo layer registries, browser schema item (schema='public')
SELECT l.f_table_name,l.f_table_schema,l.f_geometry_column,upper(l.type),l.srid,l.coord_dimension,c.relkind,obj_description(c.oid),array_agg(a.attname ORDER BY a.attnum), count(CASE WHEN t.typname IN ('geometry','geography') THEN 1 ELSE NULL END) , 0  FROM geometry_columns l,pg_class c,pg_namespace n,pg_attribute a,pg_type t WHERE c.relname=l.f_table_name AND l.f_table_schema=n.nspname AND NOT a.attisdropped AND a.attrelid=c.oid AND a.atttypid=t.oid AND a.attnum>0 AND n.oid=c.relnamespace AND has_schema_privilege(n.nspname,'usage') AND has_table_privilege(c.oid,'select') AND l.f_table_schema='public' GROUP BY 1,2,3,4,5,6,7,c.oid,11 UNION SELECT l.f_table_name,l.f_table_schema,l.f_geography_column,upper(l.type),l.srid,2,c.relkind,obj_description(c.oid),array_agg(a.attname ORDER BY a.attnum), count(CASE WHEN t.typname IN ('geometry','geography') THEN 1 ELSE NULL END) , 1  FROM geography_columns l,pg_class c,pg_namespace n,pg_attribute a,pg_type t WHERE c.relname=l.f_table_name AND l.f_table_schema=n.nspname AND NOT a.attisdropped AND a.attrelid=c.oid AND a.atttypid=t.oid AND a.attnum>0 AND n.oid=c.relnamespace AND has_schema_privilege(n.nspname,'usage') AND has_table_privilege(c.oid,'select') AND l.f_table_schema='public' GROUP BY 1,2,3,4,5,6,7,c.oid,11 ORDER BY 2,1,3

-- @ qgis/S2.3 QGIS QgsPostgresConn::getTableInfo: list: getTableInfo layer registries, source-select dialog (no schema filter)
SELECT l.f_table_name,l.f_table_schema,l.f_geometry_column,upper(l.type),l.srid,l.coord_dimension,c.relkind,obj_description(c.oid),array_agg(a.attname ORDER BY a.attnum), count(CASE WHEN t.typname IN ('geometry','geography') THEN 1 ELSE NULL END) , 0  FROM geometry_columns l,pg_class c,pg_namespace n,pg_attribute a,pg_type t WHERE c.relname=l.f_table_name AND l.f_table_schema=n.nspname AND NOT a.attisdropped AND a.attrelid=c.oid AND a.atttypid=t.oid AND a.attnum>0 AND n.oid=c.relnamespace AND has_schema_privilege(n.nspname,'usage') AND has_table_privilege(c.oid,'select') GROUP BY 1,2,3,4,5,6,7,c.oid,11 UNION SELECT l.f_table_name,l.f_table_schema,l.f_geography_column,upper(l.type),l.srid,2,c.relkind,obj_description(c.oid),array_agg(a.attname ORDER BY a.attnum), count(CASE WHEN t.typname IN ('geometry','geography') THEN 1 ELSE NULL END) , 1  FROM geography_columns l,pg_class c,pg_namespace n,pg_attribute a,pg_type t WHERE c.relname=l.f_table_name AND l.f_table_schema=n.nspname AND NOT a.attisdropped AND a.attrelid=c.oid AND a.atttypid=t.oid AND a.attnum>0 AND n.oid=c.relnamespace AND has_schema_privilege(n.nspname,'usage') AND has_table_privilege(c.oid,'select') GROUP BY 1,2,3,4,5,6,7,c.oid,11 ORDER BY 2,1,3

-- @ qgis/S2.4 QGIS QgsPostgresConn::getTableInfo: list: spatial columns not in geometry_columns (searchGeometryColumnsOnly=false)
SELECT c.relname,n.nspname,a.attname,c.relkind,CASE WHEN t.typname IN ('geometry','geography') THEN t.typname ELSE b.typname END AS coltype,obj_description(c.oid) FROM pg_attribute a JOIN pg_class c ON c.oid=a.attrelid JOIN pg_namespace n ON n.oid=c.relnamespace JOIN pg_type t ON t.oid=a.atttypid LEFT JOIN pg_type b ON b.oid=t.typbasetype WHERE c.relkind IN ('v','r','m','p','f') AND has_schema_privilege( n.nspname, 'usage' ) AND has_table_privilege( c.oid, 'select' ) AND (t.typname IN ('geometry','geography') OR b.typname IN ('geometry','geography')) AND n.nspname='public' AND NOT EXISTS (SELECT 1 FROM geometry_columns WHERE n.nspname=f_table_schema AND c.relname=f_table_name AND a.attname=f_geometry_column) AND NOT EXISTS (SELECT 1 FROM geography_columns WHERE n.nspname=f_table_schema AND c.relname=f_table_name AND a.attname=f_geography_column)

-- @ qgis/S2.5 QGIS QgsPostgresConn::addColumnInfo: list: addColumnInfo (only for views / columns found via S2.4)
SELECT attname, CASE WHEN typname in ('geometry','geography') THEN 1 ELSE null END AS isSpatial FROM pg_attribute JOIN pg_type ON atttypid=pg_type.oid WHERE attrelid=regclass('"public"."pois"') AND NOT attisdropped AND attnum>0 ORDER BY attnum

-- @ qgis/S2.6 QGIS QgsPostgresConn::getTableInfo: list: geometryless tables (only if 'Also list tables with no geometry' is ON)
SELECT pg_class.relname,pg_namespace.nspname,pg_class.relkind,obj_description(pg_class.oid),array_agg(a.attname ORDER BY a.attnum) FROM  pg_class,pg_namespace,pg_attribute a WHERE pg_namespace.oid=pg_class.relnamespace AND has_schema_privilege(pg_namespace.nspname,'usage') AND has_table_privilege(pg_class.oid,'select') AND pg_class.relkind IN ('v','r','m','p','f') AND pg_class.oid = a.attrelid AND NOT a.attisdropped AND a.attnum > 0 AND pg_namespace.nspname='public' GROUP BY 1,2,3,4

-- @ qgis/S2.7 QGIS QgsPostgresConn::getTableInfo: list: raster overview check (only if allowRasterOverviewTables=false; default true)
SELECT table_schema, table_name FROM information_schema.views WHERE table_schema = 'public' AND table_name = 'raster_overviews'

-- @ qgis/S2.8 QGIS QgsPostgresConn::retrieveLayerTypes: list: retrieveLayerTypes, type+srid known (batched UNION of two layers)
SELECT 0, array_agg(DISTINCT 4326::text || ':' || 'POINT'::text  || ':-1')  FROM "public"."pois" UNION SELECT 1, array_agg(DISTINCT 4326::text || ':' || 'POLYGON'::text  || ':-1')  FROM "public"."zones"

-- @ qgis/S2.9 QGIS QgsPostgresConn::retrieveLayerTypes: list/open: retrieveLayerTypes, type+srid unknown, estimated metadata OFF
SELECT 0, array_agg(DISTINCT st_srid("geom")::text || ':' || UPPER(geometrytype("geom"))  || ':' || ST_Zmflag("geom"))  FROM (SELECT "geom" FROM "public"."pois") AS _unused

-- @ qgis/S2.10 QGIS QgsPostgresConn::retrieveLayerTypes: list/open: retrieveLayerTypes, type+srid unknown, estimated metadata ON
SELECT 0, array_agg(DISTINCT st_srid("area")::text || ':' || UPPER(geometrytype("area"))  || ':' || ST_Zmflag("area"))  FROM (SELECT "area" FROM (SELECT "area" FROM "public"."zones" WHERE "area" IS NOT NULL LIMIT 100) AS t LIMIT 100) AS _unused

-- @ qgis/S3.1 QGIS QgsPostgresProvider::hasSufficientPermsAndCapabilities: open: select access test
SELECT * FROM "public"."pois" LIMIT 1

-- @ qgis/S3.2 QGIS QgsPostgresProvider::hasSufficientPermsAndCapabilities: open: recovery check
SELECT pg_is_in_recovery()

-- @ qgis/S3.3 QGIS QgsPostgresProvider::hasSufficientPermsAndCapabilities: open: privileges
SELECT has_table_privilege('"public"."pois"','DELETE'),has_any_column_privilege('"public"."pois"','UPDATE'),has_column_privilege('"public"."pois"','geom','UPDATE'),has_table_privilege('"public"."pois"','INSERT'),current_schema()

-- @ qgis/S3.4 QGIS QgsPostgresProvider::hasSufficientPermsAndCapabilities: open: ownership (alter-table capability)
SELECT 1 FROM pg_class,pg_namespace WHERE pg_class.relnamespace=pg_namespace.oid AND pg_has_role(relowner,'MEMBER') AND relname='pois' AND nspname='public'

-- @ qgis/S3.5 QGIS QgsPostgresProvider::getGeometryDetails: open: geometry_columns lookup
SELECT upper(type),srid,coord_dimension FROM geometry_columns WHERE f_table_name='pois' AND f_geometry_column='geom' AND f_table_schema='public'

-- @ qgis/S3.6 QGIS QgsPostgresProvider::getGeometryDetails: open: geography_columns lookup (only if S3.5 found nothing)
SELECT upper(type),srid FROM geography_columns WHERE f_table_name='pois' AND f_geography_column='geom' AND f_table_schema='public'

-- @ qgis/S3.7 QGIS QgsPostgresProvider::getGeometryDetails: open: column datatype fallback (only if not registered)
SELECT t.typname FROM pg_attribute a, pg_class c, pg_namespace n, pg_type t WHERE a.attrelid=c.oid AND c.relnamespace=n.oid AND a.atttypid=t.oid AND n.nspname='public' AND c.relname='pois' AND a.attname='geom'

-- @ qgis/S3.8 QGIS QgsPostgresProvider::getGeometryDetails: open: query-layer geometry typmod (SQL-query layers only)
SELECT (SELECT t.typname FROM pg_type t WHERE oid = (SELECT atttypid FROM pg_attribute WHERE attrelid='pois'::regclass AND attname='geom')), upper(postgis_typmod_type(1107460)), postgis_typmod_srid(1107460)

-- @ qgis/S3.9 QGIS QgsPostgresProvider::loadFields: open: relation oid
SELECT regclass('"public"."pois"')::oid

-- @ qgis/S3.10 QGIS QgsPostgresProvider::loadFields: open: table comment
SELECT description FROM pg_description WHERE objoid={{pois_oid}} AND objsubid=0

-- @ qgis/S3.11 QGIS QgsPostgresProvider::loadFields: open: field list via LIMIT 0 (QGIS reads PQftype/PQfmod/PQftable/PQftablecol)
SELECT * FROM "public"."pois" LIMIT 0

-- @ qgis/S3.11b QGIS QgsPostgresProvider::loadFields: open: same for zones
SELECT * FROM "public"."zones" LIMIT 0

-- @ qgis/S3.12 QGIS QgsPostgresProvider::loadFields: open: type catalog [summary]
SELECT oid,typname,typtype,typelem,typlen FROM pg_type

-- @ qgis/S3.12b QGIS QgsPostgresProvider::loadFields (the pg_type rows it reads for these layers' columns): type rows QGIS needs
SELECT typname,typtype,typelem,typlen FROM pg_type WHERE typname IN ('int4','text','geometry','geography','box2d','varchar','float8','int8','bool') ORDER BY typname

-- @ qgis/S3.13 QGIS QgsPostgresProvider::loadFields: open: formatted types / defaults / not-null / unique
SELECT attrelid, attnum, pg_catalog.format_type(atttypid,atttypmod), pg_catalog.col_description(attrelid,attnum), pg_catalog.pg_get_expr(adbin,adrelid), atttypid, attnotnull::int, indisunique::int FROM pg_attribute LEFT OUTER JOIN pg_attrdef ON attrelid=adrelid AND attnum=adnum LEFT OUTER JOIN ( SELECT DISTINCT indrelid, indkey, indisunique FROM pg_index WHERE indisunique ) uniq ON attrelid=indrelid AND attnum::text=indkey::text  WHERE attrelid IN ({{pois_oid}}) AND attnum > 0 ORDER BY attnum

-- @ qgis/S3.13b QGIS QgsPostgresProvider::loadFields: open: same query exactly as QGIS sends it (includes system columns, no ORDER BY) [summary]
SELECT attrelid, attnum, pg_catalog.format_type(atttypid,atttypmod), pg_catalog.col_description(attrelid,attnum), pg_catalog.pg_get_expr(adbin,adrelid), atttypid, attnotnull::int, indisunique::int FROM pg_attribute LEFT OUTER JOIN pg_attrdef ON attrelid=adrelid AND attnum=adnum LEFT OUTER JOIN ( SELECT DISTINCT indrelid, indkey, indisunique FROM pg_index WHERE indisunique ) uniq ON attrelid=indrelid AND attnum::text=indkey::text  WHERE attrelid IN ({{pois_oid}})

-- @ qgis/S3.14 QGIS QgsPostgresProvider::setEditorWidgets (tableExists): open: editor widget table exists?
SELECT COUNT(*) FROM information_schema.tables WHERE table_name='qgis_editor_widget_styles'

-- @ qgis/S3.15 QGIS QgsPostgresProvider::determinePrimaryKey: open: inheritance check
SELECT count(*) FROM pg_inherits WHERE inhparent='"public"."pois"'::regclass

-- @ qgis/S3.16 QGIS QgsPostgresProvider::determinePrimaryKey: open: first primary/unique index
SELECT indexrelid FROM pg_index WHERE indrelid='"public"."pois"'::regclass AND (indisprimary OR indisunique) ORDER BY CASE WHEN indisprimary THEN 1 ELSE 2 END LIMIT 1

-- @ qgis/S3.17 QGIS QgsPostgresProvider::determinePrimaryKey: open: key columns of that index
SELECT attname,attnotnull FROM pg_index,pg_attribute WHERE indexrelid={{pois_pkidx}} AND indrelid=attrelid AND pg_attribute.attnum=any(pg_index.indkey)

-- @ qgis/S3.18 QGIS QgsPostgresProvider::relkind: open: relkind (used when no pk index found / hasMetadata)
SELECT relkind FROM pg_class WHERE oid=regclass('"public"."pois"')::oid

-- @ qgis/S3.19 QGIS QgsPostgresProvider::determinePrimaryKey: open: oid-column fallback (tables without pk)
SELECT attname FROM pg_attribute WHERE attname='oid' AND attrelid=regclass('"public"."pois"')

-- @ qgis/S3.20 QGIS QgsPostgresProvider::determinePrimaryKey: open: ctid fallback (tables without pk)
SELECT attname FROM pg_attribute WHERE attname='ctid' AND attrelid=regclass('"public"."pois"')

-- @ qgis/S3.21 QGIS QgsPostgresProvider::uniqueData: open: key uniqueness check (nullable key / inherited / view key)
SELECT count(distinct ("id"))=count(("id")) FROM "public"."pois"

-- @ qgis/S3.22 QGIS QgsPostgresConn::sridToCrs: open: CRS lookup (master sridToCrs)
SELECT auth_name, auth_srid, srtext, proj4text FROM spatial_ref_sys WHERE srid=4326

-- @ qgis/S3.22b QGIS QgsPostgresProvider::crs: open: CRS lookup (3.x crs())
SELECT proj4text FROM spatial_ref_sys WHERE srid=4326

-- @ qgis/S3.23 QGIS QgsPostgresProvider::featureCount: open: feature count, estimated metadata OFF
SELECT count(*) FROM "public"."pois"

-- @ qgis/S3.24 QGIS QgsPostgresProvider::featureCount: open: feature count, estimated metadata ON
SELECT reltuples::int FROM pg_catalog.pg_class WHERE oid=regclass('"public"."pois"')::oid

-- @ qgis/S3.24b QGIS QgsPostgresProvider::featureCount: open: feature count estimate, bigint variant
SELECT reltuples::bigint FROM pg_catalog.pg_class WHERE oid=regclass('"public"."pois"')::oid

-- @ qgis/S3.25 QGIS QgsPostgresProvider::extent: open: extent - column stats exist?
SELECT count(*) FROM pg_stats WHERE schemaname='public' AND tablename='pois' AND attname='geom'

-- @ qgis/S3.26 QGIS QgsPostgresProvider::extent: open: extent - estimated extent
SELECT st_estimatedextent('public','pois','geom')

-- @ qgis/S3.26b QGIS QgsPostgresProvider::extent: open: extent - estimated extent, zones
SELECT st_estimatedextent('public','zones','area')

-- @ qgis/S3.27 QGIS QgsPostgresProvider::extent: open: extent - exact (fallback / estimated OFF with subset)
SELECT st_extent("geom") FROM "public"."pois"

-- @ qgis/S3.27b QGIS QgsPostgresProvider::extent: open: extent - exact, zones
SELECT st_extent("area") FROM "public"."zones"

-- @ qgis/S3.28 QGIS QgsPostgresProvider::empty: open: emptiness check
SELECT EXISTS (SELECT * FROM "public"."pois" LIMIT 1)

-- @ qgis/S3.29 QGIS QgsPostgresProvider::loadStyle (tableExists): open: layer_styles table exists? (default style load)
SELECT COUNT(*) FROM information_schema.tables WHERE table_name='layer_styles'

-- @ qgis/S3.30 QGIS QgsPostgresProvider::description: open: provider description
SELECT version()

-- @ qgis/S3.31 QGIS QgsPostgresProvider::discoverRelations: open: relations discovery (FKs)
SELECT RC.CONSTRAINT_NAME, KCU1.COLUMN_NAME, KCU2.CONSTRAINT_SCHEMA, KCU2.TABLE_NAME, KCU2.COLUMN_NAME, KCU1.ORDINAL_POSITION FROM INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS AS RC INNER JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE AS KCU1 ON KCU1.CONSTRAINT_CATALOG = RC.CONSTRAINT_CATALOG AND KCU1.CONSTRAINT_SCHEMA = RC.CONSTRAINT_SCHEMA AND KCU1.CONSTRAINT_NAME = RC.CONSTRAINT_NAME INNER JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE AS KCU2 ON KCU2.CONSTRAINT_CATALOG = RC.UNIQUE_CONSTRAINT_CATALOG AND KCU2.CONSTRAINT_SCHEMA = RC.UNIQUE_CONSTRAINT_SCHEMA AND KCU2.CONSTRAINT_NAME = RC.UNIQUE_CONSTRAINT_NAME AND KCU2.ORDINAL_POSITION = KCU1.ORDINAL_POSITION WHERE KCU1.CONSTRAINT_SCHEMA='public' AND KCU1.TABLE_NAME='pois'GROUP BY RC.CONSTRAINT_NAME, KCU1.COLUMN_NAME, KCU2.CONSTRAINT_SCHEMA, KCU2.TABLE_NAME, KCU2.COLUMN_NAME, KCU1.ORDINAL_POSITION ORDER BY KCU1.ORDINAL_POSITION

-- @ qgis/S4.1 QGIS QgsPostgresFeatureIterator::declareCursor + QgsPostgresConn::openCursor: render pois: open binary cursor (geometry + pk only)
BEGIN READ ONLY;DECLARE qgis_1 BINARY CURSOR FOR SELECT st_asbinary("geom",'NDR'),"id" FROM "public"."pois" WHERE "geom" && st_makeenvelope(-5,42,5,48,4326)

-- @ qgis/S4.2 QGIS QgsPostgresFeatureIterator::fetchFeature: render pois: fetch
FETCH FORWARD 2000 FROM qgis_1

-- @ qgis/S4.3 QGIS QgsPostgresFeatureIterator::fetchFeature: render pois: fetch again (end)
FETCH FORWARD 2000 FROM qgis_1

-- @ qgis/S4.4 QGIS QgsPostgresFeatureIterator::rewind: render pois: rewind
move absolute 0 in qgis_1

-- @ qgis/S4.5 QGIS QgsPostgresFeatureIterator::fetchFeature: render pois: fetch after the rewind (the whole queue, so that rows in no order compare as a multiset)
FETCH FORWARD 2000 FROM qgis_1

-- @ qgis/S4.6 QGIS QgsPostgresFeatureIterator::close (QgsPostgresConn::closeCursor): render pois: close
CLOSE qgis_1;COMMIT

-- @ qgis/S4.7 QGIS QgsPostgresFeatureIterator::declareCursor: pois all attributes (labels / attribute table with geometry) + fetch + close
BEGIN READ ONLY;DECLARE qgis_2 BINARY CURSOR FOR SELECT st_asbinary("geom",'NDR'),"id","name"::text,"kind"::text FROM "public"."pois" WHERE "geom" && st_makeenvelope(-5,42,5,48,4326)

-- @ qgis/S4.8 QGIS QgsPostgresFeatureIterator::fetchFeature: fetch qgis_2
FETCH FORWARD 2000 FROM qgis_2

-- @ qgis/S4.9 QGIS QgsPostgresFeatureIterator::close (QgsPostgresConn::closeCursor): close qgis_2
CLOSE qgis_2;COMMIT

-- @ qgis/S4.10 QGIS QgsPostgresFeatureIterator::whereClauseRect: identify (ExactIntersect) pois
BEGIN READ ONLY;DECLARE qgis_3 BINARY CURSOR FOR SELECT st_asbinary("geom",'NDR'),"id","name"::text,"kind"::text FROM "public"."pois" WHERE "geom" && st_makeenvelope(-1,44,1,46,4326) AND st_intersects(st_curvetoline("geom"),st_makeenvelope(-1,44,1,46,4326))

-- @ qgis/S4.11 QGIS QgsPostgresFeatureIterator::fetchFeature: fetch qgis_3
FETCH FORWARD 2000 FROM qgis_3

-- @ qgis/S4.12 QGIS QgsPostgresFeatureIterator::close (QgsPostgresConn::closeCursor): close qgis_3
CLOSE qgis_3;COMMIT

-- @ qgis/S4.13 QGIS QgsPostgresFeatureIterator::declareCursor: render zones with server-side simplification (OptimizeForRendering, <=1px)
BEGIN READ ONLY;DECLARE qgis_4 BINARY CURSOR FOR SELECT st_asbinary(st_simplify( st_removerepeatedpoints("area",0.008), 0.007, true ),'NDR'),"id" FROM "public"."zones" WHERE "area" && st_makeenvelope(-5,42,5,48,4326)

-- @ qgis/S4.14 QGIS QgsPostgresFeatureIterator::fetchFeature: fetch qgis_4
FETCH FORWARD 2000 FROM qgis_4

-- @ qgis/S4.15 QGIS QgsPostgresFeatureIterator::close (QgsPostgresConn::closeCursor): close qgis_4
CLOSE qgis_4;COMMIT

-- @ qgis/S4.16 QGIS QgsPostgresFeatureIterator::declareCursor (+ fetchFeature, close): zones simplification >1px threshold (st_snaptogrid) + preserve-topology variants
BEGIN READ ONLY;DECLARE qgis_5 BINARY CURSOR FOR SELECT st_asbinary(st_snaptogrid("area",0.04),'NDR'),st_asbinary(st_simplifypreservetopology("area",0.04),'NDR'),"id","label"::text FROM "public"."zones" WHERE "area" && st_makeenvelope(-20,30,20,60,4326);FETCH FORWARD 2000 FROM qgis_5;CLOSE qgis_5;COMMIT

-- @ qgis/S4.17 QGIS QgsPostgresUtils::whereClause: select feature by id (FilterFid, PktInt)
BEGIN READ ONLY;DECLARE qgis_6 BINARY CURSOR FOR SELECT st_asbinary("geom",'NDR'),"id","name"::text,"kind"::text FROM "public"."pois" WHERE "id"=5;FETCH FORWARD 2000 FROM qgis_6;CLOSE qgis_6;COMMIT

-- @ qgis/S4.18 QGIS QgsPostgresUtils::whereClause (FilterFids) + declareCursor: select features by ids (FilterFids) + attribute table without geometry
BEGIN READ ONLY;DECLARE qgis_7 BINARY CURSOR FOR SELECT "id","name"::text,"kind"::text FROM "public"."pois" WHERE "id" IN (1,2,3);FETCH FORWARD 2000 FROM qgis_7;CLOSE qgis_7;COMMIT

-- @ qgis/S4.19 QGIS QgsPostgresFeatureIterator ctor: DistanceWithin filter pushed to server
BEGIN READ ONLY;DECLARE qgis_8 BINARY CURSOR FOR SELECT st_asbinary("geom",'NDR'),"id" FROM "public"."pois" WHERE ("geom" && st_makeenvelope(-1,44,1,46,4326)) AND (ST_DWithin("geom",ST_GeomFromText('Point (0 45)',4326),0.5));FETCH FORWARD 2000 FROM qgis_8;CLOSE qgis_8;COMMIT

-- @ qgis/S4.20 QGIS QgsPostgresConn::postgisTypeFilter: requested geometry type differs (type filter)
SELECT count(*) FROM "public"."zones" WHERE upper(geometrytype("area")) IN ('POLYGON','POLYGONZ','POLYGONM','POLYGONZM','CURVEPOLYGON','CURVEPOLYGONZ','CURVEPOLYGONM','CURVEPOLYGONZM','MULTIPOLYGON','MULTIPOLYGONZ','MULTIPOLYGONM','MULTIPOLYGONZM','MULTIPOLYGONM','MULTISURFACE','MULTISURFACEZ','MULTISURFACEM','MULTISURFACEZM','TRIANGLE','TRIANGLEZ','TRIANGLEM','TRIANGLEZM','POLYHEDRALSURFACE','POLYHEDRALSURFACEZ','POLYHEDRALSURFACEM','POLYHEDRALSURFACEZM','TIN','TINZ','TINM','TINZM')

-- @ qgis/S4.21 QGIS QgsPostgresProvider::uniqueValues: fieldExpression for geometry attribute (st_asewkt) / uniqueValues
SELECT "kind"::text FROM (SELECT DISTINCT "kind" FROM "public"."pois" ORDER BY "kind") foo
