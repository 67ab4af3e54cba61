"""Players' names compared by how they look (scoring.names.name_key), the key kept beside each
name and unique in its club in place of the name ignoring case.

Names from before this are settled as scoring.names.settled_names settles them: hidden
characters taken out, and a name that now looks like an earlier player's of the same club
numbered ("Ben (2)"), so no player is lost or merged. Each name changed is a line of its
club's history, as a rename is (by no one). Going back leaves the names as settled."""

from django.db import migrations, models

from scoring.names import name_key, settled_names

PLAYER_NAME_MAX_LENGTH = 40


def settle_names(apps, schema_editor):
    Player = apps.get_model("scoring", "Player")
    ClubChange = apps.get_model("scoring", "ClubChange")
    clubs = Player.objects.values_list("club_id", flat=True).distinct()
    for club_id in clubs:
        players = list(Player.objects.filter(club_id=club_id).order_by("pk"))
        names = settled_names(
            [player.name for player in players], max_length=PLAYER_NAME_MAX_LENGTH
        )
        for player, name in zip(players, names, strict=True):
            if name != player.name:
                ClubChange.objects.create(
                    club_id=club_id,
                    action="rename_player",
                    name=player.name[:150],
                    new_name=name,
                )
            player.name, player.name_key = name, name_key(name)
        Player.objects.bulk_update(players, ["name", "name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0015_imported_files"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.TextField(default="", editable=False),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_unique_name_in_club",
        ),
        migrations.RunPython(settle_names, migrations.RunPython.noop, elidable=False),
    ]
