#!/usr/bin/env bash
# kms-run with `--kms-api legacy`: the same checks (animation, idle, screen equals render,
# restore with the card held open) on the legacy SetCrtc/PageFlip path, which vkms would
# otherwise never take.
KMS_EXPECT_API=legacy
source "$(dirname "$0")/kms-run.sh"
