#!/bin/sh
# tirx-reduce's interestingness test: exit 1 (interesting) while the PTX of
# the file still has a max.f32 against the immediate 1.0 (0f3F800000).
tirx-opt "$1" --tirx-to-ptx=ptx-output=- -o /dev/null 2>/dev/null |
  grep -q "max.f32 .*0f3F800000;" && exit 1
exit 0
