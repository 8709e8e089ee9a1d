#!/bin/bash
# corpusbot warc -j 1 on one core, two trees alternating (BEFORE and AFTER checkouts of the
# repository; the archive from `python benchmarks/warc.py copies /tmp/copies.warc.gz`).
# Usage: BEFORE=/path/to/old-tree AFTER=/path/to/new-tree bash benchmarks/pipeline_ab.sh
cd /tmp
for rep in 1 2; do
  for meta in "" "--no-metadata"; do
    for v in before after; do
      rm -rf /tmp/bp-$v
      if [ $v = before ]; then pp=$BEFORE; else pp=$AFTER; fi
      s=$(date +%s.%N)
      extra=""; [ $v = after ] && extra="--no-digest-check"
      PYTHONPATH=$pp taskset -c 1 ${PYTHON:-python} -m corpusbot warc /tmp/copies.warc.gz -o /tmp/bp-$v -j 1 -q $meta $extra
      e=$(date +%s.%N)
      docs=$(python3 -c "import json;print(json.load(open('/tmp/bp-$v/manifest.json'))['documents'])")
      echo "$rep meta=${meta:-on} $v $(python3 -c "print(round($e-$s,2))") s docs=$docs"
    done
  done
done
