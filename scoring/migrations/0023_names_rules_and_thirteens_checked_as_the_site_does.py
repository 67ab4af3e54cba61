import scoring.models.clubs
from django.db import migrations, models


# The models check what the site keeps as it keeps it, so that full_clean() (the admin's forms,
# a backup's restore) does too: a player's name tidied and showing, house rules the site knows;
# and a seat's count of full hands may be empty, as it is under rules that count no cards.
# Nothing changes in the database.
class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0022_last_deal_without_a_clock"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="rules",
            field=models.CharField(
                default="standard",
                editable=False,
                max_length=200,
                validators=[scoring.models.clubs.validate_rules_name],
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(
                max_length=40, validators=[scoring.models.clubs.validate_roster_name]
            ),
        ),
        migrations.AlterField(
            model_name="season",
            name="rules",
            field=models.CharField(
                default="standard",
                max_length=200,
                validators=[scoring.models.clubs.validate_rules_name],
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="thirteens",
            field=models.PositiveIntegerField(blank=True, default=0, null=True),
        ),
    ]
