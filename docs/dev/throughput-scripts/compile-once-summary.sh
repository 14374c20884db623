#!/bin/sh
# summary.sh WS: per repository, CPU seconds by phase (phase_times) and gold's verdict
db=$1/.curate/curate.db
sqlite3 -readonly -separator ' | ' $db "select repo, phase, count(*), printf('%.1f', sum(wall_s)), printf('%.1f', sum(cpu_s)) from phase_times group by repo, phase order by repo, phase"
echo ---
sqlite3 -readonly -separator ' | ' $db "select r.task_id, r.mode, r.outcome, r.reward, json_array_length(r.fail_to_pass), json_array_length(r.pass_to_pass), printf('%.1f', p.cpu_s), printf('%.1f', p.wall_s) from runs r left join phase_times p on p.run_id = r.id and p.phase = 'runs' order by r.task_id, r.started_at"
