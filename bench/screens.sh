#!/bin/bash
# One turn of each bundled game as a 120×50 terminal shows it (tmux): bash bench/screens.sh
cd "$(dirname "$0")/.."
for spec in "hare.rules --players 3 --seed 4:1 1" "luckydog.rules --players 4 --seed 3:1 1" "slipstream.rules --players 3 --seed 3:1" "reversi.rules --seed 2:1 1" "leduc.rules --seed 5:1"; do
  args=${spec%%:*}; answers=${spec##*:}
  tmux -L shots kill-server 2>/dev/null
  tmux -L shots new-session -d -s s -x 120 -y 50 ".venv/bin/meeple play games/$args; sleep 30"
  for a in $answers; do
    for i in $(seq 50); do tmux -L shots capture-pane -t s -p | grep -q "quit)>" && break; sleep 0.1; done
    tmux -L shots send-keys -t s "$a" Enter; sleep 0.5
  done
  for i in $(seq 50); do tmux -L shots capture-pane -t s -p | grep -q "quit)>" && break; sleep 0.1; done
  echo "=================== meeple play games/$args (after answering: $answers)"
  tmux -L shots capture-pane -t s -p | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
  tmux -L shots kill-server
done
