package fix

import (
	"context"
	"time"
)

func getAs[C context.Context](ctx C, key string) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
