package pgcatalog

import (
	"strings"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The postgis extension's relations: spatial_ref_sys with the rows of the
// SRIDs zproxy can transform between (PostGIS 3.3's rows, verbatim), and
// the views geometry_columns and geography_columns that QGIS, GeoServer
// and ogr2ogr read to list a database's layers, computed from the
// columns' typmods as PostGIS's views compute them.

// spatialRefSys are spatial_ref_sys's rows.
var spatialRefSys = []struct {
	srid          int64
	srtext, proj4 string
}{
	{3857, "PROJCS[\"WGS 84 / Pseudo-Mercator\",GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563,AUTHORITY[\"EPSG\",\"7030\"]],AUTHORITY[\"EPSG\",\"6326\"]],PRIMEM[\"Greenwich\",0,AUTHORITY[\"EPSG\",\"8901\"]],UNIT[\"degree\",0.0174532925199433,AUTHORITY[\"EPSG\",\"9122\"]],AUTHORITY[\"EPSG\",\"4326\"]],PROJECTION[\"Mercator_1SP\"],PARAMETER[\"central_meridian\",0],PARAMETER[\"scale_factor\",1],PARAMETER[\"false_easting\",0],PARAMETER[\"false_northing\",0],UNIT[\"metre\",1,AUTHORITY[\"EPSG\",\"9001\"]],AXIS[\"X\",EAST],AXIS[\"Y\",NORTH],EXTENSION[\"PROJ4\",\"+proj=merc +a=6378137 +b=6378137 +lat_ts=0.0 +lon_0=0.0 +x_0=0.0 +y_0=0 +k=1.0 +units=m +nadgrids=@null +wktext +no_defs\"],AUTHORITY[\"EPSG\",\"3857\"]]",
		"+proj=merc +a=6378137 +b=6378137 +lat_ts=0.0 +lon_0=0.0 +x_0=0.0 +y_0=0 +k=1.0 +units=m +nadgrids=@null +wktext +no_defs"},
	{4326, "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563,AUTHORITY[\"EPSG\",\"7030\"]],AUTHORITY[\"EPSG\",\"6326\"]],PRIMEM[\"Greenwich\",0,AUTHORITY[\"EPSG\",\"8901\"]],UNIT[\"degree\",0.0174532925199433,AUTHORITY[\"EPSG\",\"9122\"]],AUTHORITY[\"EPSG\",\"4326\"]]",
		"+proj=longlat +datum=WGS84 +no_defs "},
}

func init() {
	generate("public.spatial_ref_sys", func(*Env) []row {
		out := make([]row, len(spatialRefSys))
		for i, s := range spatialRefSys {
			out[i] = &pgSpatialRefSysRow{Srid: intV(s.srid), AuthName: textV("EPSG"), AuthSrid: intV(s.srid),
				Srtext: textV(s.srtext), Proj4text: textV(s.proj4)}
		}
		return out
	})
	geomColumns := func(e *Env, id sqltypes.TypeID, f func(o *object, c column, dims, srid int64, typ string)) {
		for _, o := range e.objects().list {
			if !o.isTable() && o.kind != 'v' {
				continue
			}
			for _, c := range o.cols {
				t := c.typ
				if t.ID != id {
					continue
				}
				kind, srid, z, m := t.GeomTypmodParts()
				dims := int64(2)
				if z {
					dims++
				}
				if m {
					dims++
				}
				typ := "Geometry"
				if t.Width != 0 {
					typ = kind.String()
					if z {
						typ += "Z"
					}
					if m {
						typ += "M"
					}
				}
				if t.Width == 0 {
					dims = -1 // postgis_typmod_dims(-1): NULL
				}
				f(o, c, dims, int64(srid), typ)
			}
		}
	}
	generate("public.geometry_columns", func(e *Env) []row {
		var out []row
		geomColumns(e, sqltypes.Geometry, func(o *object, c column, dims, srid int64, typ string) {
			// PostGIS's view: dimensions 2 without a typmod, the type in
			// upper case without its Z (an M stays: POINTM).
			if dims < 0 {
				dims = 2
			}
			up := strings.ToUpper(typ)
			up = strings.ReplaceAll(strings.ReplaceAll(up, "ZM", ""), "Z", "")
			out = append(out, &pgGeometryColumnsRow{FTableCatalog: textV(e.database()), FTableSchema: nameV(e.namespaceName(o.ns)),
				FTableName: nameV(o.name), FGeometryColumn: nameV(c.name), CoordDimension: intV(dims), Srid: intV(srid), Type: textV(up)})
		})
		return out
	})
	generate("public.geography_columns", func(e *Env) []row {
		var out []row
		geomColumns(e, sqltypes.Geography, func(o *object, c column, dims, srid int64, typ string) {
			r := &pgGeographyColumnsRow{FTableCatalog: nameV(e.database()), FTableSchema: nameV(e.namespaceName(o.ns)),
				FTableName: nameV(o.name), FGeographyColumn: nameV(c.name), CoordDimension: intV(dims), Srid: intV(srid), Type: textV(typ)}
			if dims < 0 {
				r.CoordDimension = nullV
			}
			out = append(out, r)
		})
		return out
	})
}
