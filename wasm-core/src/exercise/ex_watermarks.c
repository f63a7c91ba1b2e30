#include "exercise.h"
int ex_watermarks(struct blab_exercise *ex)
{
	return ex_fail(ex, BLAB_EINVAL, "not yet");
}
