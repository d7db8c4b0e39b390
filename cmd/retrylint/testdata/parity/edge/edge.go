// Package edge retries app, which retries too: the chain crosses three
// packages.
package edge

import (
	"context"
	"time"

	"example.com/parity/app"
)

type Server struct{ app *app.Client }

func (s *Server) Handle(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.app.Nested(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
