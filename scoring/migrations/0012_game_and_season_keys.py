import uuid

from django.db import migrations, models


def give_each_its_own_key(apps, schema_editor):
    for name in ("Game", "Season"):
        model = apps.get_model("scoring", name)
        for pk in model.objects.values_list("pk", flat=True):
            model.objects.filter(pk=pk).update(key=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [("scoring", "0011_clubchange_account_deleted")]

    operations = [
        # Null first: a default would give every existing row the same key.
        migrations.AddField("game", "key", models.UUIDField(editable=False, null=True)),
        migrations.AddField("season", "key", models.UUIDField(editable=False, null=True)),
        migrations.RunPython(give_each_its_own_key, migrations.RunPython.noop),
        migrations.AlterField(
            "game", "key", models.UUIDField(default=uuid.uuid4, editable=False)
        ),
        migrations.AlterField(
            "season", "key", models.UUIDField(default=uuid.uuid4, editable=False)
        ),
    ]
