package fix

import (
	"context"
	"time"
)

// bg stays in use: only the argument changes.
func kept(ctx context.Context) error {
	bg := context.Background()
	c, cancel := context.WithTimeout(bg, time.Second) // want `through bg, discarding the deadline inherited from ctx$`
	defer cancel()
	use(bg)
	return use(c)
}

// The argument was root's only use: its declaration goes too.
func only(ctx context.Context) error {
	root := context.TODO()
	c, cancel := context.WithTimeout(root, time.Second) // want `through root, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func onlyVar(ctx context.Context) error {
	var root = context.Background()
	c, cancel := context.WithTimeout(root, time.Second) // want `through root, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}
