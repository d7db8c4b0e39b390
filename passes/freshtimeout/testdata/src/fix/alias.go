package fix

import (
	stdctx "context"
	"time"
)

func renamed(ctx stdctx.Context) error {
	c, cancel := stdctx.WithTimeout(stdctx.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
