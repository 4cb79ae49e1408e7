//go:build !unix

package safefs

// oNonblock: there are no FIFOs to hang on here.
const oNonblock = 0
