package session

import (
	"context"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

func (st *statement) describeCopy(ctx context.Context) ([]sqltypes.Type, []wire.Column, error) {
	return nil, nil, nil
}

func (st *statement) copy(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY is not supported")
}
