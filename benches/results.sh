#!/usr/bin/env bash
# The self-play tables of docs/RESULTS.md, from the shots files in docs/results/.
#
#   benches/results.sh            recompute every row and paired difference from the files
#   benches/results.sh play       play the cheap shooters' runs again and rewrite the files
#                                 (100,000 games each; a few minutes on 2 cores)
#   benches/results.sh play-exact play exact greedy's runs (100,000 games under each variant;
#                                 20 to 60 minutes each on 2 cores)
#   benches/results.sh play-parts [VARIANT] [SHOOTER] FIRST GAMES
#                                 play games FIRST+1 to FIRST+GAMES of one shooter (pilot:800
#                                 unless named) under a rule variant (touch-announced, the
#                                 standard game, unless named; pilot:800 takes about 1 s a game
#                                 on 2 cores) into parts under target/parts/VARIANT-SHOOTER/,
#                                 resuming a part cut short, and put every part there (one cut
#                                 short by Ctrl-C too) and the games already in the variant's
#                                 results file together as that file
#                                 (docs/results/VARIANT-pilot-800.json for pilot:800): how
#                                 a long run is played, and a shorter one made longer; while it
#                                 plays, `broadside summarize target/parts/VARIANT-SHOOTER/FIRST.json
#                                 --against docs/results/VARIANT-density-50.1.json` pairs the
#                                 games so far (`play-pilot` is the same command); begun again
#                                 where the file ends, it moves the parts already in the file
#                                 aside to merged/FIRST/
#
# Each file is `broadside simulate ... --shots FILE` of one shooter under one rule variant,
# seed 1; every file of a variant holds the same boards, so any two are paired.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BROADSIDE:-target/release/broadside}
dir=docs/results

variants=(touch-announced notouch-announced touch-silent notouch-silent)
cheap=(random hunt-target parity checkerboard knight habr density:50 density:50.1 density:50.1.2)
exact=(greedy)

rules_of() {
  case $1 in
    touch-announced) echo "--rules touch --sinking announced" ;;
    notouch-announced) echo "--rules no-touch --sinking announced" ;;
    touch-silent) echo "--rules touch --sinking none" ;;
    notouch-silent) echo "--rules no-touch --sinking none" ;;
  esac
}

play() {
  local games=$1; shift
  for v in "${variants[@]}"; do
    for s in "$@"; do
      # Exact greedy takes 12 to 33 ms a game on two cores under every variant: 100,000
      # games each, as the cheap rules.
      n=$games
      [ "$n" = exact ] && n=100000
      # shellcheck disable=SC2046
      "$bin" simulate --shooter "$s" --seed 1 --size 10x10 --fleet "5 4 3 3 2" $(rules_of "$v") \
        --games "$n" --shots "$dir/$v-${s//:/-}.json" > /dev/null
      echo "$v $s"
    done
  done
}

case ${1:-table} in
  play) play 100000 "${cheap[@]}" ;;
  play-exact) play exact "${exact[@]}" ;;
  play-parts | play-pilot)
    shift
    v=touch-announced
    if [ -n "$(rules_of "${1:-}")" ]; then v=$1; shift; fi
    shooter=pilot:800
    # Three words left: the first names the shooter.
    if [ $# -gt 2 ]; then shooter=$1; shift; fi
    first=${1:?FIRST}; games=${2:?GAMES}
    name=$v-${shooter//:/-}
    parts=target/parts/$name
    file=$dir/$name.json
    mkdir -p "$parts"
    # A new part that begins where the results file ends (a run stopped, put together and
    # begun again) continues the file itself: the parts already in it are moved aside to
    # merged/FIRST/ (kept, not deleted), so that no stale copy of an earlier file leaves a
    # gap before the new part.
    ends_at() {
      python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))
print(f["first"] + f["games"])' "$1"
    }
    if [ -e "$file" ] && [ "$first" -gt 0 ] && [ ! -e "$parts/$first.json" ] &&
      [ "$(ends_at "$file")" = "$first" ]; then
      for p in "$parts"/*.json "$parts"/*.jsonl; do
        if [ -e "$p" ]; then
          mkdir -p "$parts/merged/$first"
          mv "$p" "$parts/merged/$first/"
        fi
      done
    fi
    # The committed games are the first part (the next begins at FIRST = their count),
    # unless they were played here, where their own part starts at game 0.
    if [ -e "$file" ] && [ ! -e "$parts/committed.json" ] && [ ! -e "$parts/0.json" ]; then
      cp "$file" "$parts/committed.json"
    fi
    # shellcheck disable=SC2046
    "$bin" simulate --shooter "$shooter" --seed 1 --size 10x10 --fleet "5 4 3 3 2" \
      $(rules_of "$v") --first "$first" --games "$games" \
      --out "$parts/$first.jsonl" --shots "$parts/$first.json" --resume || status=$?
    # A run cut short (Ctrl-C, or a time limit) keeps the games it played in its part: they
    # are put together with the others all the same, and its exit status is passed on.
    "$bin" summarize "$parts"/*.json --save "$file"
    exit "${status:-0}"
    ;;
  table)
    for v in "${variants[@]}"; do
      echo "## $v"
      files=("$dir/$v"-*.json)
      for f in "${files[@]}"; do
        [ -e "$f" ] || continue
        printf '%s: ' "$(basename "$f" .json)"
        "$bin" summarize "$f" | head -1
      done
      base="$dir/$v-density-50.json"
      [ -e "$base" ] || continue
      for f in "${files[@]}"; do
        [ "$f" = "$base" ] && continue
        printf '%s minus density-50: ' "$(basename "$f" .json)"
        "$bin" summarize "$f" --against "$base" | head -1
      done
      # The pilot against its base and against exact greedy, on the boards both hold.
      for f in "$dir/$v"-pilot-*.json; do
        [ -e "$f" ] || continue
        for other in density-50.1 greedy; do
          [ -e "$dir/$v-$other.json" ] || continue
          printf '%s minus %s: ' "$(basename "$f" .json)" "$other"
          "$bin" summarize "$f" --against "$dir/$v-$other.json" | head -1
        done
      done
    done
    # What the departures of a shooter's games are worth against density:50.1, measured by
    # `broadside gains` (each file names the commands that play and measure its games), and
    # two shooters' gains paired on the boards both files hold.
    echo "## gains against density:50.1"
    python3 - "$dir"/gains/*.json <<'PY'
import json, math, sys
def moments(xs):
    n = len(xs); m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n), sd
runs = {}
for path in sys.argv[1:]:
    f = json.load(open(path))
    name = path.rsplit("/", 1)[-1][:-5]
    runs[name] = f
    m, half, sd = moments(f["gain"])
    print(f"{name}: {m:+.3f} ({m - half:+.3f} to {m + half:+.3f}) shots a game over games "
          f"{f['first'] + 1}-{f['first'] + f['count']}, sd {sd:.3f}, "
          f"{sum(f['departures']) / f['count']:.2f} departures a game")
names = sorted(runs)
for a in names:
    for b in names:
        fa, fb = runs[a], runs[b]
        if a >= b or fa["first"] != fb["first"] or fa["count"] != fb["count"]:
            continue
        m, half, _ = moments([x - y for x, y in zip(fa["gain"], fb["gain"])])
        print(f"{a} minus {b}: {m:+.3f} ({m - half:+.3f} to {m + half:+.3f})")
PY
    ;;
  *) echo "usage: benches/results.sh [table|play|play-exact|play-parts [VARIANT] [SHOOTER] FIRST GAMES]" >&2; exit 2 ;;
esac
